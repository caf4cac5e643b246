// The Polemos rule language.
//
// One grammar for rulesets, overlays (house rules), stdlib modules, scenario files and the REPL's
// `eval` expressions. The parser is generated at build time into the build directory; only
// interpreter/syntax/ sees the generated classes, and the AstBuilder turns parse trees into the
// hand-written AST. Semantic rules (names, types, overlays, citations) live in interpreter/check/,
// not here: this grammar accepts some programs that the checker then rejects with a clear message.
//
// Keyword policy: words that start a declaration or a statement are reserved; words that only
// have meaning in one position (`rows`, `columns`, `at`, `by`, `from`, `side`, `state`, ...) are
// "soft" and stay usable as ordinary names (see `ident`). The list of reserved words is shared
// with the REPL's tab completion through interpreter/syntax/keywords.h.
grammar Polemos;

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

file
  : partHeader? topItem* EOF
  ;

// `part of standard`: this file holds declarations included by ruleset `standard`.
partHeader
  : PART OF ident
  ;

topItem
  : rulesetBlock
  | houseBlock
  | moduleBlock
  | scenarioBlock
  | declaration
  ;

rulesetBlock
  : RULESET ident STRING? (EXTENDS ident)? citation* '{' declaration* '}'
  ;

houseBlock
  : HOUSE ident FOR ident STRING? citation* '{' declaration* '}'
  ;

moduleBlock
  : MODULE qualifiedName STRING? '{' declaration* '}'
  ;

scenarioBlock
  : SCENARIO ident FOR ident STRING? citation* '{' scenarioItem* '}'
  ;

// The REPL's `eval` and `expect` commands parse one expression.
replExpr
  : expr EOF
  ;

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

declaration
  : overlay=(REPLACE | ADD) declBody                       # overlayDecl
  | REMOVE declKind qualifiedName citation* ';'?           # removeDecl
  | declBody                                               # plainDecl
  ;

// The kinds of declaration that `remove` can name.
declKind
  : OPTION | ENUM | CONST | UNIT CLASS | UNIT TYPE | TERRAIN | HEXSIDE | TABLE | QUANTITY
  | MODIFIER | FUNCTION | PROCEDURE | ACTION | RESULTS | EVENT | TRIGGER | DIE | PHASE
  | STEP | LEVELS
  ;

declBody
  : USES qualifiedName (',' qualifiedName)* ';'?                                   # usesDecl
  | INCLUDE STRING (',' STRING)* ';'?                                              # includeDecl
  | LEVELS ident ('<' ident)* citation* ';'?                                       # levelsDecl
  | OPTION ident (':' typeRef)? '=' expr citation* STRING? ';'?                    # optionDecl
  | ENUM ident citation* '{' enumMember (',' enumMember)* ','? '}'                 # enumDecl
  | CONST ident (':' typeRef)? '=' expr citation* ';'?                             # constDecl
  | DIE ident '=' '[' expr (',' expr)* ']' citation* STRING? ';'?                  # dieDecl
  | stateOwner=(SIDE | GAME | HEX) STATE citation* '{' fieldDecl* '}'              # stateDecl
  | UNIT CLASS ident citation* '{' fieldDecl* '}'                                  # classDecl
  | UNIT TYPE ident ':' ident STRING? citation* '{' fieldInit* '}'                 # unitTypeDecl
  | kind=(TERRAIN | HEXSIDE | SCENARIO) ATTRIBUTES citation* '{' fieldDecl* '}'    # attributesDecl
  | kind=(TERRAIN | HEXSIDE) ident STRING? citation* '{' fieldInit* '}'            # kindDecl
  | TABLE ident STRING? citation* '{' tableBody '}'                                # tableDecl
  | QUANTITY qualifiedName '(' params? ')' (':' typeRef)? citation* '=' expr citation* STRING? ';'? # quantityDecl
  | MODIFIER ident ON qualifiedName ('(' identList? ')')? citation* gate* STRING?
      '{' modClause+ '}'                                                           # modifierDecl
  | FUNCTION ident '(' params? ')' (':' typeRef)? citation* ('=' expr ';'? | block) # functionDecl
  | PROCEDURE ident '(' params? ')' (':' typeRef)? citation* block                 # procedureDecl
  | ACTION ident '(' actionParams? ')' citation* STRING? gate* block               # actionDecl
  | RESULTS ident '(' params? ')' citation* '{' resultCase+ '}'                    # resultsDecl
  | EVENT ident '(' params? ')' citation* ';'?                                     # eventDecl
  | TRIGGER ident ON ident '(' identList? ')' citation* gate* block                # triggerDecl
  | SEQUENCE citation* block                                                       # sequenceDecl
  ;

enumMember
  : ident citation* STRING?
  ;

// A schema field (`strength: int = 0 §2.4 "combat strength"`), a per-unit state field
// (`state disrupted: bool = false`) or a derived value (`demoralized := losses >= level`). A
// field may say how a player sees it: `counter "str"` (always shown, as printed on the counter or
// the status line), `marker "D"` (shown while it is set: true, non-zero, not none, not empty).
fieldDecl
  : STATE? ident ':' typeRef fieldBounds? ('=' expr)? citation* STRING? fieldDisplay? ';'?  # storedField
  | ident ':=' expr citation* STRING? fieldDisplay? ';'?                          # derivedField
  ;

fieldDisplay
  : role=(COUNTER | MARKER) STRING?
  ;

// `state fatigue: int in 0..3`: the values an integer field may hold, as the rules bound them.
fieldBounds
  : IN loNeg='-'? lo=INT '..' hiNeg='-'? hi=INT
  ;

fieldInit
  : ident '=' expr ';'?
  ;

// Gates turn a declaration on and off: `level basic` (at basic or above), `if displacement`.
gate
  : LEVEL ident            # levelGate
  | IF expr                # ifGate
  ;

params
  : param (',' param)*
  ;

param
  : ident ':' typeRef
  ;

actionParams
  : actionParam (',' actionParam)*
  ;

// `u: unit in my_units()`: the domain lists the candidates that `legal` enumerates.
actionParam
  : ident ':' typeRef (IN expr)?
  ;

identList
  : ident (',' ident)*
  ;

typeRef
  : ident ('<' typeRef (',' typeRef)* '>')? '?'?
  ;

qualifiedName
  : ident ('.' ident)*
  ;

citation
  : CITATION
  ;

// --- Tables ---------------------------------------------------------------------------------

tableBody
  : tableRowsSpec? tableColumnsSpec? tableRow*
  ;

tableRowsSpec
  : ROWS keyKind ';'?
  ;

tableColumnsSpec
  : COLUMNS keyKind tableKey+ ';'?
  ;

// What a row or column key is compared with: a die roll or other integer, an odds ratio, or the
// values of an enum.
keyKind
  : ident
  | DICE
  ;

tableRow
  : ROW tableKey ':' tableCell* ';'?
  ;

tableKey
  : INT '-' INT                                   # rangeKey
  | loNeg='-'? lo=INT '..' hiNeg='-'? hi=INT      # dotRangeKey
  | op=('<' | '<=' | '>' | '>=') neg='-'? INT     # boundKey
  | neg='-'? INT                                  # intKey
  | ODDS                                          # oddsKey
  | ident                                         # nameKey
  ;

// Cells are atoms; the AstBuilder joins a '-' that touches the following INT into a negative
// number, and reads a lone '-' as "no result".
tableCell
  : '-' | INT | ODDS | STRING | ident | TRUE | FALSE | NONE
  ;

// --- Modifiers ------------------------------------------------------------------------------

modClause
  : WHEN expr ':' modOp (BECAUSE expr (',' expr)*)? ';'?     # whenClause
  | ALWAYS ':' modOp (BECAUSE expr (',' expr)*)? ';'?        # alwaysClause
  ;

modOp
  : op=('+' | '-' | '*' | '=') expr                          # arithOp
  | '/' expr rounding=(UP | DOWN | NEAREST)?                  # divideOp
  | SHIFT expr                                               # shiftOp
  ;

// --- Results --------------------------------------------------------------------------------

resultCase
  : (ident | '-') citation* STRING? block
  ;

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

scenarioItem
  : MAP COLUMNS INT '..' INT ROWS INT '..' INT (LABELS ident)? citation* '{' mapItem* '}'  # mapItem_
  | SIDE ident STRING? citation* '{' fieldInit* '}'                                        # sideItem
  | FORCE ident citation* '{' unitPlacement* '}'                                           # forceItem
  | ident '=' expr citation* ';'?                                                          # settingItem
  | RULES '{' declaration* '}'                                                             # rulesItem
  ;

mapItem
  : DEFAULT ident ';'?                          # defaultTerrain
  | TERRAIN ident ':' hexRef* ';'?              # terrainItem
  | HEXSIDE ident ':' hexPair* ';'?             # hexsideItem
  | ELEVATION INT ':' hexRef* ';'?              # elevationItem
  | GROUP ident ':' hexRef* ';'?                # groupItem
  | HEX ident '=' expr ':' hexRef* ';'?         # hexStateItem
  ;

hexRef
  : hexLabel ('..' hexLabel)?
  ;

hexLabel
  : INT | ident
  ;

hexPair
  : hexLabel '/' hexLabel
  ;

// `hun1 hun_cav at 3400 facing N tribe = hun`, or without `at` for a unit that is off the map
// (set up later or a reinforcement: `enters = 3`).
unitPlacement
  : ident ident (AT hexLabel)? (FACING ident)? fieldInit* ';'?
  ;

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

// A `return` without a value ends its block (finalReturn) or is followed by `;`: so whether a
// `return` has a value shows at the token after it, and the parser need not look ahead through
// the value to learn whether the next statement begins there.
block
  : '{' statement* finalReturn? '}'
  ;

finalReturn
  : RETURN
  ;

statement
  : LET ident (':' typeRef)? '=' expr ';'?                                      # letStmt
  | IF expr block (ELSE (ifStmtTail | block))?                                  # ifStmt
  | FOR ident IN expr block                                                     # forStmt
  | WHILE expr block                                                            # whileStmt
  | REQUIRE expr citation* (ELSE STRING)? ';'?                                  # requireStmt
  | RETURN (expr ';'? | ';')                                                    # returnStmt
  | PHASE ident citation* gate* (FOR expr)? '{' phaseItem* '}'                  # phaseStmt
  | STEP ident citation* gate* block                                            # stepStmt
  | ALTERNATE FROM expr UNTIL INT PASSES citation* gate* '{' phaseItem* '}'     # alternateStmt
  | EMIT ident '(' args? ')' ';'?                                               # emitStmt
  | APPLY expr ';'?                                                             # applyStmt
  | NOTE citation* expr (',' expr)* ';'?                                        # noteStmt
  | PAUSE citation* expr ';'?                                                   # pauseStmt
  | block                                                                       # blockStmt
  | stmtName postfix* (op=('=' | '+=' | '-=') expr)? ';'?                       # simpleStmt
  ;

ifStmtTail
  : IF expr block (ELSE (ifStmtTail | block))?
  ;

// Inside a phase or an alternation: the actions the acting player may take, the condition for
// ending it, and code run at its start and end.
phaseItem
  : ALLOW identList ';'?                          # allowItem
  | END REQUIRES expr citation* (ELSE STRING)? ';'?   # endRequiresItem
  | ON START block                                # onStartItem
  | ON END block                                  # onEndItem
  ;

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

expr
  : ident ARROW expr                                       # lambdaExpr
  | '(' identList ')' ARROW expr                           # lambdaMultiExpr
  | IF expr THEN expr ELSE expr                            # condExpr
  | opExpr                                                 # plainExpr
  ;

// The operators, in one rule with the tightest first (ANTLR turns it into precedence climbing:
// one parse-tree node an operand and one an operator, where a rule per level of precedence made
// eleven for every operand): calls, indexes and fields; unary minus; * / %; + -; the range ..;
// the comparisons; not; and; or. Comparisons and ranges do not chain (`a < b < c`, `1..2..3`):
// the AST builder refuses them.
opExpr
  : primary                                                # atomOp
  | opExpr postfix                                         # postfixOp
  | '-' opExpr                                             # negOp
  | opExpr op=('*' | '/' | '%') opExpr                     # mulOp
  | opExpr op=('+' | '-') opExpr                           # addOp
  | opExpr '..' opExpr                                     # rangeOp
  | opExpr cmpOp opExpr                                    # cmpOpExpr
  | NOT opExpr                                             # notOp
  | opExpr AND opExpr                                      # andOp
  | opExpr OR opExpr                                       # orOp
  ;

cmpOp
  : '==' | '!=' | '<' | '<=' | '>' | '>=' | IN | NOT IN
  ;

postfix
  : '(' args? ')'                                          # callPostfix
  | '[' expr (',' expr)* ']'                               # indexPostfix
  | '.' (ident | ROW)                                      # memberPostfix
  ;

args
  : arg (',' arg)*
  ;

arg
  : (ident ':')? expr
  ;

primary
  : INT                                                    # intLit
  | ODDS                                                   # oddsLit
  | STRING                                                 # stringLit
  | TRUE                                                   # trueLit
  | FALSE                                                  # falseLit
  | NONE                                                   # noneLit
  | CITATION                                               # citationLit
  | ROLL rollCount? dieRef rollMode=(HIGHEST | LOWEST | EACH)? citation*   # rollExpr
  | CHOOSE expr BY expr STRING? citation*                  # chooseExpr
  | '[' (expr (',' expr)* ','?)? ']'                       # listLit
  | '{' (mapEntry (',' mapEntry)* ','?)? '}'               # mapLit
  | '(' expr ')'                                           # parenExpr
  | ident                                                  # nameExpr
  ;

rollCount
  : INT
  | '(' expr ')'
  ;

dieRef
  : DICE
  | ident
  ;

mapEntry
  : ident ':' expr
  ;

// Soft keywords are usable as names.
ident
  : ID
  | PART | OF | SIDE | GAME | STATE | UNIT | CLASS | TYPE | TERRAIN | HEXSIDE | ATTRIBUTES
  | ROWS | COLUMNS | ON | BECAUSE | ALWAYS | UP | DOWN | NEAREST | SHIFT | LEVEL
  | MAP | LABELS | DEFAULT | ELEVATION | GROUP | FORCE | AT | FACING | RULES | FROM | UNTIL
  | PASSES | ALLOW | END | REQUIRES | START | BY | HIGHEST | LOWEST | EACH | ADD | REMOVE
  | REPLACE | EVENT | NOTE | DIE | STEP | PHASE | EXTENDS | HOUSE | MODULE | SCENARIO
  | TABLE | FUNCTION | PAUSE | HEX | COUNTER | MARKER
  ;

// The name that begins a simple statement (an assignment or a call): any name but the four
// words that begin statements of their own (note, pause, phase, step), so that the parser knows
// a statement's kind from its first word. Keep it equal to `ident` less those four.
stmtName
  : ID
  | PART | OF | SIDE | GAME | STATE | UNIT | CLASS | TYPE | TERRAIN | HEXSIDE | ATTRIBUTES
  | ROWS | COLUMNS | ON | BECAUSE | ALWAYS | UP | DOWN | NEAREST | SHIFT | LEVEL | MAP
  | LABELS | DEFAULT | ELEVATION | GROUP | FORCE | AT | FACING | RULES | FROM | UNTIL
  | PASSES | ALLOW | END | REQUIRES | START | BY | HIGHEST | LOWEST | EACH | ADD | REMOVE
  | REPLACE | EVENT | DIE | EXTENDS | HOUSE | MODULE | SCENARIO | TABLE | FUNCTION | HEX
  | COUNTER | MARKER
  ;

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

// Reserved words.
RULESET   : 'ruleset';
INCLUDE   : 'include';
USES      : 'uses';
LEVELS    : 'levels';
OPTION    : 'option';
ENUM      : 'enum';
CONST     : 'const';
TABLE     : 'table';
QUANTITY  : 'quantity';
MODIFIER  : 'modifier';
FUNCTION  : 'function';
PROCEDURE : 'procedure';
ACTION    : 'action';
RESULTS   : 'results';
TRIGGER   : 'trigger';
SEQUENCE  : 'sequence';
WHEN      : 'when';
LET       : 'let';
IF        : 'if';
ELSE      : 'else';
FOR       : 'for';
IN        : 'in';
WHILE     : 'while';
REQUIRE   : 'require';
RETURN    : 'return';
ALTERNATE : 'alternate';
EMIT      : 'emit';
APPLY     : 'apply';
THEN      : 'then';
AND       : 'and';
OR        : 'or';
NOT       : 'not';
TRUE      : 'true';
FALSE     : 'false';
NONE      : 'none';
ROLL      : 'roll';
CHOOSE    : 'choose';
// `row` starts a table row, so it cannot be a name (a cell that is a name would be ambiguous).
ROW       : 'row';

// Soft keywords (see `ident`).
PART       : 'part';
OF         : 'of';
EXTENDS    : 'extends';
HOUSE      : 'house';
MODULE     : 'module';
SCENARIO   : 'scenario';
SIDE       : 'side';
GAME       : 'game';
STATE      : 'state';
UNIT       : 'unit';
CLASS      : 'class';
TYPE       : 'type';
TERRAIN    : 'terrain';
HEXSIDE    : 'hexside';
ATTRIBUTES : 'attributes';
ROWS       : 'rows';
COLUMNS    : 'columns';
ON         : 'on';
BECAUSE    : 'because';
ALWAYS     : 'always';
UP         : 'up';
DOWN       : 'down';
NEAREST    : 'nearest';
SHIFT      : 'shift';
LEVEL      : 'level';
MAP        : 'map';
LABELS     : 'labels';
DEFAULT    : 'default';
ELEVATION  : 'elevation';
GROUP      : 'group';
HEX        : 'hex';
FORCE      : 'force';
AT         : 'at';
FACING     : 'facing';
RULES      : 'rules';
FROM       : 'from';
UNTIL      : 'until';
PASSES     : 'passes';
ALLOW      : 'allow';
END        : 'end';
REQUIRES   : 'requires';
START      : 'start';
BY         : 'by';
HIGHEST    : 'highest';
LOWEST     : 'lowest';
EACH       : 'each';
ADD        : 'add';
REMOVE     : 'remove';
REPLACE    : 'replace';
EVENT      : 'event';
NOTE       : 'note';
PAUSE      : 'pause';
DIE        : 'die';
STEP       : 'step';
PHASE      : 'phase';
COUNTER    : 'counter';
MARKER     : 'marker';

ARROW  : '->';

// `3:1` is an odds ratio only when written without spaces.
ODDS   : [0-9]+ ':' [0-9]+;
// `d6`, `2d6`: dice. (So no name may look like `d6`.)
DICE   : [0-9]* 'd' [0-9]+;
INT    : [0-9]+;
// `§7.43`, `§4.A`, `§17.2.1`; a final '.' is not part of the citation. `§chalons:6.1` cites rule
// 6.1 of another document: the exclusive rules of scenario `chalons` (only inside that scenario).
CITATION : '§' ([a-z] [a-z0-9_]* ':')? [0-9A-Za-z]+ ('.' [0-9A-Za-z]+)*;
// The closing quote is optional so that a string left open ends at the end of its line as one
// token: the parser wrapper reports it ("unterminated string") and the parser sees a string.
STRING : '"' (~["\\\r\n] | '\\' .)* '"'?;
ID     : [A-Za-z_] [A-Za-z_0-9]*;

LINE_COMMENT  : '//' ~[\r\n]* -> skip;
// A comment left open runs to the end of the file (one token, rather than a rescan from every
// later `/*`); it goes to the hidden channel so that the parser wrapper can report it.
BLOCK_COMMENT : '/*' .*? ('*/' | EOF) -> channel(HIDDEN);
WS            : [ \t\r\n\f]+ -> skip;

// Anything else is one bad character, reported by the lexer's error listener.
BAD_CHAR : . ;
