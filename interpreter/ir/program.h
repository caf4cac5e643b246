// The lowered program: what the checker produces and the evaluator runs.
//
// Every name is resolved: enums, options, classes, unit types, terrain and hexside kinds, tables,
// functions and fields are indices into the vectors below; tables are dense arrays; the modifiers
// of a quantity are compiled into the quantity's own function, in their order of application.
// Names survive only as display text (for traces, `legal`, errors). The Program is immutable once
// built and shared by every Session cloned from it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "diag/source.h"
#include "ir/value.h"

namespace polemos::hex {
class Grid;
}

namespace polemos::ir {

// --- Types ------------------------------------------------------------------------------------

enum class TypeKind : uint8_t {
  Any,
  None,
  Bool,
  Int,
  Odds,
  Str,
  Enum,
  Unit,
  Side,
  Hex,
  Terrain,
  Feature,
  UnitType,
  Level,
  Table,
  Column,
  Die,
  List,
  Func,
  Void
};

struct Type {
  TypeKind kind = TypeKind::Any;
  int32_t id = -1;  // Enum: enum id; Unit: class id (-1: any class)
  bool optional = false;
  std::shared_ptr<const Type> elem;  // List element

  static Type any() { return Type{}; }
  static Type of(TypeKind k, int32_t id = -1) {
    Type t;
    t.kind = k;
    t.id = id;
    return t;
  }
  static Type listOf(Type e) {
    Type t;
    t.kind = TypeKind::List;
    t.elem = std::make_shared<const Type>(std::move(e));
    return t;
  }
  const Type& element() const {
    static const Type kAny;
    return elem ? *elem : kAny;
  }
};

struct Program;
// A type as the language writes it: `int`, `list<unit>`, `Weapon?` (ir/type_name.cpp).
std::string typeName(const Program& p, const Type& t);

// --- Bytecode ---------------------------------------------------------------------------------

enum class Op : uint8_t {
  Nop,
  Const,       // push constants[a]
  Load,        // push local a
  Store,       // local a = pop
  LoadGlobal,  // push globals[a] (consts, options, enum members resolved at load)
  LoadOption,  // push the session's value of option a
  Pop,
  Dup,
  // Arithmetic and logic on the two top values.
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Neg,
  Not,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  In,
  NotIn,
  Jump,          // pc = a
  JumpIfFalse,   // pop; if false pc = a (b: kAndOperand when it stands for an `and`, ir/peephole.h)
  JumpIfTrue,    // pop; if true pc = a
  AndJump,       // if top is false: pc = a (keep it), else pop   (short-circuit `and`)
  OrJump,        // if top is true: pc = a (keep it), else pop    (short-circuit `or`)
  MakeList,      // pop a values, push a list
  MakeRange,     // pop hi, lo; push list lo..hi
  MakeClosure,   // pop b captures; push Func a with them
  Member,        // pop obj; push obj.<names[a]>
  SetMember,     // pop value, obj; obj.<names[a]> = value (units, sides, game state)
  AddMember,     // pop value, obj; obj.<names[a]> += value
  Index,         // pop a indices and the object; push obj[...]
  Call,          // call function a with b args (pushed)
  CallBuiltin,   // call builtin a with b args
  CallValue,     // pop b args and a Func value below them; call it
  Return,        // return top of stack (or none)
  IterInit,      // pop a list; local a = list, local a+1 = 0
  IterNext,      // if local a+1 < len(local a): push element, ++; else pc = b
  Roll,          // chance point: rolls[a]; count pushed when rolls[a].dynamicCount
  Choose,        // decision point: pop prompt info? see chooses[a]; pops player, options
  Require,       // pop cond; if false: fail with requires[a]
  Window,        // decision point: phase window phases[a], locals from b
  PhaseEnter,    // trace the start of phases[a]; set current phase
  PhaseExit,     // trace the end of phases[a]
  StepEnter,     // trace steps[a]
  Emit,          // emit event a with b args
  ApplyResult,   // pop b args and a result value; run that result's case
  Note,          // trace notes[a] with b values popped
  SkipUntraced,  // when the trace is not written: pc = a (past a note and its values); no step
  Pause,         // pauses[a] with the text popped: a stop the Session may pass through
  Trace,         // trace a modifier application: mods[a]; pops before/after/because values
  Fail,          // runtime error: messages[a]
  // Made by the peephole pass (ir/peephole.h) out of two instructions, the second of which stays
  // in place and is skipped:
  LoadMember,  // Load a; Member b: push local a's member names[b]
  LoadLoad,    // Load a; Load b: push local a, then local b
};

// JumpIfFalse's `b` when it stands for an `and` (made so by ir/peephole.h): its error names
// `and`/`or`.
constexpr int32_t kAndOperand = 1;

struct Instr {
  Op op = Op::Nop;
  int32_t a = 0;
  int32_t b = 0;
};

// A function whose whole work is to give back another function's answer for arguments made of
// its own parameters (ir/forwarding.h finds them): `function stops_movement(u: unit, h: hex) =
// in_enemy_zoc(u.side, h)`, or Standard's move_cost, which does so whenever its `from` is not
// the mover's own hex. A caller that knows the condition holds may call the target directly.
struct Forward {
  int32_t target = -1;  // the function called
  // Each argument of the target: parameter `param` of the forwarding function, or that unit
  // parameter's side (`side`) or hex (`hex`), or the answer of nested call `call` (below).
  struct Arg {
    int32_t param = -1;
    bool side = false;
    bool hex = false;
    int32_t call = -1;
  };
  std::vector<Arg> args;
  // The calls whose answers are arguments of the target, in the order the code makes them: each
  // a pure function of arguments made like the target's (a parameter, a unit's side or hex; no
  // call), called before the target as the code would call it.
  struct Call {
    int32_t target = -1;
    std::vector<Arg> args;
    bool ofUnit = false;  // every argument a unit's side or hex: one answer for one unit
    // Every argument a parameter of the forwarding function, and the target reads nothing of the
    // game (ir/forwarding.h): one answer for the same arguments, whatever the state.
    bool constant = false;
  };
  std::vector<Call> calls;
  // When set (>= 0): the forwarding holds only while hex parameter `hexParam` is not the hex of
  // unit parameter `unitParam` (it never holds otherwise).
  int32_t hexParam = -1, unitParam = -1;
  // The instructions the forwarding function's own code runs to make the call and return its
  // answer (a fused pair counts two, as the step budget counts them). A lambda's forward is
  // charged them (Function::lambdaForward); a hook's is not (docs/language.md, the step budget).
  int32_t steps = 0;
};

// A function whose answer is whether one of its parameters is in the list another function gives
// for arguments made of its parameters (`function in_enemy_zoc(s: side, h: hex): bool = h in
// enemy_zoc(s)`; ir/forwarding.h finds them): a movement search that asks it of hundreds of hexes
// with the same list may ask for the list once and look each hex up in it.
struct Membership {
  int32_t element = -1;  // the parameter looked for
  Forward list;          // the call that gives the list (no nested call, no condition)
};

// A one-parameter function whose answer is a member of its parameter, or that member negated
// (`x -> not x.moved`, `e -> e.hex`; ir/forwarding.h finds them): a builtin going through a list
// may read the member without making the call.
struct FieldRead {
  int32_t nameId = -1;
  bool negated = false;
  int32_t steps = 0;  // the instructions the call runs, charged to the step budget all the same
};

enum class FuncKind : uint8_t {
  Function,   // pure: no effects, no dice, no decisions
  Procedure,  // may change state, roll, choose
  Action,     // an action's body (params bound by the window)
  Guard,      // an action's leading requirements (pure)
  Quantity,   // a quantity with its modifiers (pure)
  Trigger,
  Result,
  Sequence,
  Lambda,   // pure
  Derived,  // a derived field (pure); param 0 is the owner
  Init      // constant initialisers and defaults (pure)
};

struct Function {
  std::string name;
  FuncKind kind = FuncKind::Function;
  int32_t arity = 0;
  int32_t locals = 0;  // including parameters
  std::vector<Instr> code;
  std::vector<diag::SourceRange> ranges;  // one per instruction, for runtime errors
  std::vector<std::string> citations;
  std::vector<std::string> paramNames;
  std::vector<Type> paramTypes;
  Type result;
  diag::SourceRange range;
  // The code writes trace events (notes, modifier applications, table look-ups): a player reads
  // those, so calls of such a function are never answered from the memo of pure calls. Kept up to
  // date by the compiler as it emits code, so the evaluator need not scan the code on every call.
  bool writesTrace = false;
  // The function or anything it calls (directly, or through a lambda or function value it makes)
  // writes trace events. While a game is traced such calls are always run, never answered from
  // the memo: the same command prints the same modifiers whatever was computed before it
  // (markTracingCalls sets it once the program is compiled).
  bool tracesDeep = false;
  // Set by ir/forwarding.h when the function forwards to another (see Forward).
  std::optional<Forward> forward;
  // Set by ir/forwarding.h when the function asks whether a parameter is in a list (see
  // Membership).
  std::optional<Membership> membership;
  // Some function forwards to this one (or asks for its list, Membership): a search that made the
  // forwarded call asks it again (mending a kept search) through the memo, as the forwarding
  // function's code would.
  bool forwardTarget = false;
  // Set by ir/forwarding.h when the function only reads a member of its parameter.
  std::optional<FieldRead> fieldRead;
  // Set by ir/forwarding.h for a lambda of one parameter whose only work is to give back a
  // function's answer for that parameter or its side or hex (`u -> may_end_in(u, u.hex)`): no
  // nested call, no condition. filter, all, any and the like call the target directly.
  std::optional<Forward> lambdaForward;
  bool pure() const {
    return kind == FuncKind::Function || kind == FuncKind::Guard || kind == FuncKind::Quantity ||
           kind == FuncKind::Lambda || kind == FuncKind::Derived || kind == FuncKind::Init;
  }
};

// --- Declarations -------------------------------------------------------------------------------

struct EnumInfo {
  std::string name;
  std::vector<std::string> members;
  std::vector<std::string> memberCitations;
  std::vector<std::string> descriptions;
  int32_t results = -1;  // a `results` declaration's enum: index into results
};

struct OptionInfo {
  std::string name;
  Type type;
  Value value;  // default
  std::vector<std::string> citations;
  std::string description;
};

struct DieInfo {
  std::string name;
  std::vector<int64_t> faces;  // equally likely
  std::vector<std::string> citations;
};

// How a player sees a field, as its declaration says (`counter "str"`, `marker "D"`): a counter
// value is always shown, a marker while it is set; a hidden field is bookkeeping, shown on request.
enum class Display : uint8_t { Hidden, Counter, Marker };

struct FieldInfo {
  std::string name;
  int32_t nameId = -1;  // index into Program::names
  Type type;
  bool isState = false;
  int32_t derived = -1;  // function index for derived fields
  int32_t init = -1;     // function computing the default (-1: none, value is `none`)
  Value value;           // the default when it is a constant
  std::vector<std::string> citations;
  std::string description;
  Display display = Display::Hidden;
  std::string label;  // how the views name it: the declared label, else the field's name
  // `in LO..HI`: the values a whole-number field may hold; a value outside is refused wherever it
  // comes from (a unit type, a scenario, an assignment, a set-up edit, a saved game).
  std::optional<std::pair<int64_t, int64_t>> bounds;
  bool inBounds(const Value& v) const {
    return !bounds || v.tag != Tag::Int || (v.i >= bounds->first && v.i <= bounds->second);
  }
  // "steps 3 is outside 0..2 (§8.1)", for an error: the field's name, the value and its range.
  std::string outOfBounds(const std::string& who, const Value& v) const;
};

// The properties the language itself gives units, hexes, sides and kinds (not declared fields).
enum class BuiltinName : uint8_t {
  Other,
  Id,
  Type,
  Side,
  Hex,
  Facing,
  OnMap,
  Eliminated,
  Exited,
  Merged,
  Class,
  Terrain,
  Col,
  Row,
  Label,
  Elevation,
  Units,
  Name,
  Title,
  Index
};
BuiltinName builtinName(const std::string& n);

struct Schema {
  std::string name;
  std::vector<FieldInfo> fields;
  // Some field is a counter or a marker. A schema with none is shown whole (a small ruleset that
  // declares no display), and a change of any of its fields is a result a player sees.
  bool declaresDisplay = false;
  std::vector<int32_t> slotOf;  // name id -> field index (-1: none), read at every field access
  std::vector<std::string> citations;
  int32_t find(int32_t nameId) const {
    return nameId >= 0 && static_cast<size_t>(nameId) < slotOf.size() ? slotOf[nameId] : -1;
  }
  void add(int32_t nameId, int32_t slot) {
    if (static_cast<size_t>(nameId) >= slotOf.size()) slotOf.resize(nameId + 1, -1);
    slotOf[nameId] = slot;
  }
};

struct UnitTypeInfo {
  std::string name;
  int32_t cls = -1;
  std::vector<Value> values;  // one per class field (defaults filled)
  std::vector<std::string> citations;
  std::string description;
};

struct KindInfo {  // terrain and hexside kinds
  std::string name;
  std::vector<Value> values;  // one per attribute of the schema
  std::vector<std::string> citations;
  std::string description;
};

struct TableKeyInfo {
  enum Kind { Int, Range, Less, LessEq, Greater, GreaterEq, Odds, Member } kind = Int;
  int64_t lo = 0, hi = 0;
  std::string text;  // as written
  bool matches(int64_t v) const;
};

struct TableInfo {
  std::string name;
  std::string title;
  enum KeyKind { IntKeys, OddsKeys, EnumKeys, NoKeys } rowKind = IntKeys, colKind = NoKeys;
  int32_t rowEnum = -1, colEnum = -1;
  std::vector<TableKeyInfo> rows, cols;  // cols empty: a one-column table
  std::vector<Value> cells;              // rows.size() x max(1, cols.size())
  std::vector<std::string> citations;
  diag::SourceRange range;
};

struct ActionParam {
  std::string name;
  Type type;
  int32_t domain = -1;  // function computing the candidates from the earlier params
};

struct ActionInfo {
  std::string name;
  std::vector<ActionParam> params;
  int32_t guard = -1;  // pure function: the leading requirements
  // The requirements of the guard (indices in Program::requirements) that come before its
  // code reads any parameter: each is met or not alike for every argument in one state of the
  // game (`require acting_side().cp >= 1`), so one refusal stands for all the candidates.
  std::vector<int32_t> sharedRequires;
  int32_t body = -1;
  int32_t gate = -1;  // pure function returning bool, or -1
  std::vector<std::string> citations;
  std::string description;
};

struct RequireInfo {
  std::vector<std::string> citations;
  std::string text;  // the message, or the condition's source text
};

struct RollInfo {
  int32_t die = -1;
  int64_t count = 1;
  bool dynamicCount = false;
  enum Mode { Sum, Highest, Lowest, Each } mode = Sum;
  std::vector<std::string> citations;  // the trace names a roll by Program::rollText
};

struct ChooseInfo {
  std::string prompt;
  std::vector<std::string> citations;
};

struct PhaseInfo {
  std::string name;
  bool alternate = false;  // `alternate ... until N passes`
  int64_t passes = 2;
  std::vector<int32_t> actions;
  int32_t endRequires = -1;  // pure function returning bool, or -1
  RequireInfo endInfo;
  std::vector<std::string> citations;
};

struct ModifierInfo {  // for traces and coverage
  std::string name;
  std::string quantity;
  std::vector<std::string> citations;
  std::string opText;  // "x2", "+1", "shift -1"
};

struct EventInfo {
  std::string name;
  std::vector<Type> params;
  std::vector<int32_t> triggers;  // trigger function indices, in declaration order
  std::vector<int32_t> triggerGates;
  std::vector<std::string> triggerNames;
};

struct ResultsInfo {
  std::string name;
  int32_t enumId = -1;
  std::vector<int32_t> cases;  // function per member (-1: nothing happens)
};

// --- Scenario ---------------------------------------------------------------------------------

struct UnitSetup {
  std::string id;
  int32_t type = -1;
  int32_t side = -1;
  int32_t hex = -1;                                  // -1: off the map
  int32_t facing = -1;                               // -1: none
  std::vector<std::pair<int32_t, Value>> overrides;  // (field index, value)
  diag::SourceRange range;
};

struct SideSetup {
  std::string name;
  std::string title;
  std::vector<std::pair<int32_t, Value>> overrides;  // side state field index, value
};

// --- The program --------------------------------------------------------------------------------

struct Program {
  std::string rulesetName;
  std::string title;
  std::string scenarioName;
  std::string scenarioTitle;
  // The files the program was made from (the ruleset chain, its includes and modules, house files,
  // the scenario), each as a name relative to the search root it was found under (or its file
  // name) with a hash of its text, sorted: a save records them, so that a game saved by an older
  // build loads when they are unchanged and a change is named when they are not.
  std::vector<std::pair<std::string, std::string>> sources;

  std::vector<std::string> names;  // field and member names used by Member/SetMember
  std::unordered_map<std::string, int32_t> nameIds;
  // Per name, which property the language gives of itself it is (a unit's `side`, a hex's
  // `terrain`), so that a member access compares numbers, not strings.
  std::vector<BuiltinName> nameKinds;
  int32_t nameId(const std::string& n);

  std::vector<Value> constants;          // bytecode constants
  std::vector<Value> globals;            // consts evaluated at load
  std::vector<std::string> globalNames;  // their names (for compiling REPL expressions)
  // The steps one command may take, from the ruleset's constant `step_budget`; 0: the default
  // (limits::kStepBudget).
  int64_t stepBudget = 0;

  std::vector<std::string> levels;
  std::vector<EnumInfo> enums;
  std::vector<OptionInfo> options;
  std::vector<DieInfo> dice;
  Schema sideState, gameState, hexState, terrainAttrs, hexsideAttrs, scenarioAttrs;
  std::vector<Schema> classes;
  std::vector<UnitTypeInfo> unitTypes;
  std::vector<KindInfo> terrains, features;
  std::vector<TableInfo> tables;
  std::vector<Function> functions;
  std::vector<ActionInfo> actions;
  std::vector<RequireInfo> requirements;
  std::vector<RollInfo> rolls;
  std::vector<ChooseInfo> chooses;
  std::vector<PhaseInfo> phases;
  std::vector<std::string> steps;
  std::vector<std::vector<std::string>> stepCitations;
  std::vector<ModifierInfo> modifiers;
  std::vector<EventInfo> events;
  std::vector<ResultsInfo> results;
  std::vector<RequireInfo> notes;
  std::vector<RequireInfo> pauses;  // `pause`: their citations
  std::vector<std::string> messages;
  int32_t sequence = -1;

  // Scenario data (empty when running a ruleset without a scenario).
  int32_t mapCols0 = 0, mapCols1 = -1, mapRows0 = 0, mapRows1 = -1;
  bool letterLabels = false;
  std::vector<SideSetup> sides;
  std::vector<UnitSetup> units;
  std::vector<Value> scenarioValues;  // one per scenarioAttrs field
  std::vector<int32_t> mapTerrain;    // per hex (index = (col - c0) * rows + (row - r0))
  std::vector<int32_t> mapElevation;
  std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> mapHexsides;  // (hex a<b) -> features
  std::map<std::string, std::vector<int32_t>> mapGroups;
  // The scenario's hex state values (`hex fort = 200: 1510`), in the order given: (hex, slot,
  // value).
  struct HexStateValue {
    int32_t hex = -1, slot = -1;
    Value value;
  };
  std::vector<HexStateValue> mapHexState;
  // The map's geometry (neighbours, lines, paths), built once with the scenario; null without a
  // map.
  std::shared_ptr<const hex::Grid> grid;

  // User functions by name, for the hooks that hex builtins call (move_cost, los_blocks, ...).
  std::unordered_map<std::string, int32_t> functionByName;
  int32_t findFunction(const std::string& name) const {
    auto it = functionByName.find(name);
    return it == functionByName.end() ? -1 : it->second;
  }

  // Display helpers.
  std::string display(const Value& v) const;
  // A roll as the trace names it, with the number of dice actually rolled: "d6", "2d6 highest"
  // (dice named dN), "3×regular" (other dice).
  std::string rollText(int32_t roll, int64_t count) const;
};

}  // namespace polemos::ir
