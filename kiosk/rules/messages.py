"""Every message key the rules can emit, with a plain-English template for visitors.

The UI translates these keys (gettext); the English here is the source text. Templates use
only the ruling's own parameters, at most fifteen words each. `{seat}` is a seat number
(0 or 1) that the UI replaces with the player's name before formatting.
"""

from __future__ import annotations

from types import MappingProxyType

MESSAGES = MappingProxyType(
    {
        # Azar: phases
        "azar.phase.first_throw": "The caster throws first.",
        "azar.phase.second_throw": "Second throw: it sets the caster's own chance.",
        "azar.phase.chase": "Throw in turn until one of the two chances comes up.",
        "azar.phase.over": "The game is over.",
        # Azar: rulings
        "azar.azar_wins": "{total} is an azar on the first throw: {seat} wins.",
        "azar.chance_for_opponent": "{total} is a chance: it belongs to {seat}.",
        "azar.reazar_loses": "{total} is a reazar: {seat} loses.",
        "azar.encuentro_restart": "{total} again: an encuentro. The game starts over.",
        "azar.encuentro_rethrow": "{total} again: an encuentro. {seat} throws again.",
        "azar.chance_for_caster": "{total} is a chance: it belongs to {seat}.",
        "azar.chance_wins": "{total} is the chance of {seat}: {seat} wins.",
        "azar.azar_ignored": "{total} is an azar: it does not count now. Throw again.",
        "azar.chance_ignored": "{total} is nobody's chance: throw again.",
        # Azar: outcomes
        "azar.won_by_azar": "Won with an azar on the first throw.",
        "azar.lost_by_reazar": "A reazar on the second throw: the caster loses.",
        "azar.won_by_chance": "Won when the winner's chance came up first.",
        # Azar: variants
        "azar.title.card": "Azar",
        "azar.summary.card": "Azar as the rule card reads it.",
        "azar.title.lana": "Azar, Lana's four azari",
        "azar.summary.lana": "Only 3, 4, 17 and 18 are azari, as Dante's commentator Lana says.",
        "azar.title.rethrow": "Azar, encuentro throws again",
        "azar.summary.rethrow": "Throwing the opponent's chance again means just throw again.",
        "azar.title.opponent_second": "Azar, opponent's second throw",
        "azar.summary.opponent_second": (
            "The opponent makes the second throw; it sets the caster's chance."
        ),
        # Medio azar: phases
        "medio_azar.phase.throw_off": "Throw-off: both players throw, the higher total starts.",
        "medio_azar.phase.open": "Each azar wins a stake; a reazar sets the opponent's chance.",
        "medio_azar.phase.seek_chance": "Each azar wins a stake; a new reazar sets your chance.",
        "medio_azar.phase.recovery": "Recovery throw: an azar takes all the stakes on the table.",
        "medio_azar.phase.chase": "The first chance thrown wins the prize; azars raise it.",
        "medio_azar.phase.over": "The game is over.",
        # Medio azar: rulings
        "medio_azar.throw_off_first": "Throw-off: {seat} throws {total}. Now the other player.",
        "medio_azar.throw_off_tie": "{total} each: a tie. Throw off again.",
        "medio_azar.throw_off_won": "{total} against {other_total}: {seat} starts.",
        "medio_azar.azar_pays": "{total} is an azar: {seat} wins {stakes} stake.",
        "medio_azar.chance_for_opponent": "{total} is a reazar: it becomes the chance of {seat}.",
        "medio_azar.recovery_due": "{total} is the opponent's chance: {seat} throws again.",
        "medio_azar.recovery_wins": "{total} is an azar: {seat} takes all {stakes} stakes.",
        "medio_azar.new_opponent_chance": "{total} is a reazar: it is now the chance of {seat}.",
        "medio_azar.chance_for_caster": "{total} is a reazar: it becomes the chance of {seat}.",
        "medio_azar.chance_wins": "{total} is the chance of {seat}: {seat} wins {stakes} stakes.",
        "medio_azar.prize_raised": "{total} is an azar: the prize rises to {prize} stakes.",
        "medio_azar.no_effect": "{total} is nobody's chance: throw again.",
        # Medio azar: outcomes
        "medio_azar.won_by_chance": "Won when the winner's chance came up first.",
        "medio_azar.won_by_recovery": "Won with an azar on the recovery throw.",
        # Medio azar: variants
        "medio_azar.title.card": "Medio azar",
        "medio_azar.summary.card": "Medio azar as the card reads it; the caster keeps the dice.",
        # Hazard: phases
        "hazard.phase.call_main": "The caster calls a main: 5, 6, 7, 8 or 9.",
        "hazard.phase.throw_main": "The caster throws until 5, 6, 7, 8 or 9: that is the main.",
        "hazard.phase.come_out": "The caster throws: a nick wins, an out loses.",
        "hazard.phase.chance": "The caster throws on: his chance wins, the main loses.",
        "hazard.phase.over": "The game is over.",
        # Hazard: rulings
        "hazard.main_called": "{seat} calls {main} as the main.",
        "hazard.main_thrown": "{main} is the main.",
        "hazard.no_main": "{total} is no main: throw again.",
        "hazard.nick": "{total} nicks the main of {main}: {seat} wins.",
        "hazard.out": "{total} is out to a main of {main}: {seat} loses.",
        "hazard.chance_set": "{total} is the chance of {seat}, against the main of {main}.",
        "hazard.chance_wins": "{total}, the chance, comes first: {seat} wins.",
        "hazard.main_loses": "{total}, the main, comes first: {seat} loses.",
        "hazard.no_effect": "{total} is neither chance nor main: throw again.",
        # Hazard: outcomes
        "hazard.won_by_nick": "The caster nicked the main on his first throw.",
        "hazard.lost_by_out": "The caster threw out on his first throw.",
        "hazard.won_by_chance": "The caster threw his chance before the main.",
        "hazard.lost_by_main": "The caster threw the main before his chance.",
        # Hazard: variants
        "hazard.title.called_main": "Hazard",
        "hazard.summary.called_main": "English Hazard, two dice: call a main from 5 to 9.",
        "hazard.title.thrown_main": "Hazard, the main thrown",
        "hazard.summary.thrown_main": (
            "Hazard as Seymour gives it: the first 5 to 9 thrown is the main."
        ),
    }
)
