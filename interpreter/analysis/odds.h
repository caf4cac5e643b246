#pragma once
// Exact odds of one action (an attack, a fire, a melee) or of the action under way: every chance
// event on the way to the end of its resolution is enumerated with its probability (each face of
// each die equally likely, several dice combined as the roll combines them), and the decisions met
// on the way (which unit is lost, the retreat hex, the advance) are taken by a stated policy or,
// on request, split so that each option is reported on its own.
//
// It works on copies of the Session and never changes the game it is given. It stops a branch when
// the action is over (the game is back at a window, or over), so it answers "what can this combat
// do", not "who wins the battle" (that is `polemos sim`). Outcomes are summarised from what the
// rules traced (the combat's result) and what changed (units eliminated, moved, marked; side and
// game fields), and identical outcomes are added up.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/session.h"

namespace polemos::analysis {

// A probability as an exact fraction while it fits in 64 bits (dice of up to a few hundred faces
// over a handful of rolls always do), and as a long double always.
struct Prob {
  uint64_t num = 0, den = 1;
  bool exact = true;
  long double value = 0;

  static Prob one() { return Prob{1, 1, true, 1.0L}; }
  Prob times(uint64_t n, uint64_t d) const;
  Prob plus(const Prob& o) const;
  std::string fraction() const;  // "1/3", or "≈0.3333" when the fraction did not fit
};

// How the follow-on decisions are taken: those met after the first roll (the unit lost, the
// retreat hex, the advance). The decisions before it describe the action (which units attack,
// which hexes are attacked): `picks` answers them, or else their first option.
enum class OddsPolicy {
  First,   // the first option listed (for "another unit (none: no more)" lists: every unit; for an
           // advance: the first unit that may advance)
  Last,    // the last option listed (usually `none`: no more units, stay)
  Random,  // each option equally likely (the expectation over a player who picks at random)
};
std::optional<OddsPolicy> parsePolicy(const std::string& s);
const char* policyName(OddsPolicy p);

struct OddsRequest {
  OddsPolicy policy = OddsPolicy::First;
  bool split =
      false;  // each option of each follow-on decision is a branch of its own, reported apart
  // Option numbers (0-based) for the first decisions met, in order, before anything else applies:
  // the attackers of an attack, say. Every branch uses them for its first decisions.
  std::vector<size_t> picks;
  // More branches than this and the question is refused (it would take too long to answer).
  uint64_t maxBranches = 2'000'000;
};

// One distinct outcome.
struct OddsOutcome {
  std::string result;                  // what the rules traced as the result ("§7.6 result DR")
  std::vector<std::string> changes;    // "d 0506 → 0507", "d eliminated", "red.losses 0 → 4"
  std::vector<std::string> decisions;  // with split: "retreat hex (§7.71) → 0507", in order
  Prob p;
  uint64_t branches = 0;  // how many enumerated branches ended in this outcome
  std::string key() const;
};

struct OddsReport {
  std::string question;  // "attack 0506", or the pending decision
  std::string actor;     // the side acting (or choosing)
  OddsRequest request;
  std::vector<OddsOutcome> outcomes;  // most likely first
  std::vector<std::string> always;    // changes found in every outcome (taken out of each)
  uint64_t branches = 0;              // leaves of the enumeration
  uint64_t chancePoints = 0;          // rolls met, over all branches
  uint64_t decisionPoints = 0;        // decisions met, over all branches
  std::string error;                  // the question could not be answered
  // The modifier and note lines traced before the first roll (strengths, their modifiers, the
  // odds): the same in every branch. Not part of `formatOdds`; `compare` shows them.
  std::vector<std::string> beforeRoll;
};

// The odds of `action args` taken now (the game must be at a window that allows it).
OddsReport oddsOfAction(const engine::Session& game, int32_t action,
                        const std::vector<ir::Value>& args, const OddsRequest& request);
// The odds of the action under way (the game stopped at a decision or a roll inside it).
OddsReport oddsFromHere(const engine::Session& game, const OddsRequest& request);

// The question as a player types it: an action's name and arguments ("attack 0506"), or no words
// for the action under way. Nothing, with `why`, when it cannot be read in this game.
std::optional<OddsReport> oddsOfWords(const engine::Session& game,
                                      const std::vector<std::string>& words,
                                      const OddsRequest& request, std::string& why);

// The summary of one finished branch: `before` is the game when the question was asked, `after`
// the game at the end of the branch (for a Monte Carlo check that plays the same action).
OddsOutcome summarizeOutcome(const engine::Session& before, const engine::Session& after);
// Takes the decision at a Choose stop as `policy` would when it is deterministic (First, Last).
size_t policyPick(OddsPolicy policy, size_t options);

// As a table (text), or as one JSON document.
std::string formatOdds(const OddsReport& r, bool json);

}  // namespace polemos::analysis
