"""The four reports a person reads (VIEW-1): MEMBER STATUS, QUEST STATUS, BESTIARY and
EFFECTS (one party page, then one page per member). They read the state only; reading one
costs no time, and the env notes it for Sixpence (`DelveEnv.report`, SIX-1's 300 paces)."""

from __future__ import annotations

from ..engine.core.tables import (
    ARMOR,
    CAT_WEAPON,
    CLASS_NAMES,
    CLASS_OPTIONS,
    EFFECT_NAMES,
    I_CAT,
    I_DV,
    ITEMS,
    KING,
    MF_ARMOR_EATER,
    MF_DRAINER,
    MF_FOOD_THIEF,
    MF_METAL_EATER,
    MF_RANGED,
    MF_UNDEAD,
    MF_XP_DRAINER,
    MONSTER_NAMES,
    NUM_EQUIP,
    NUM_POWERS,
    NUM_SPELLS,
    OFF_HAND,
    POWER_NAMES,
    PRIME_DODGE,
    PRIME_DOUBLE,
    PRIME_FEROCIOUS,
    PRIME_FOCUS,
    PRIME_GROW,
    PRIME_SMITE,
    READY,
    SPELL_NAMES,
    TRUE_NAMES,
    WARD,
)
from ..engine.outputs.observe import armor_value
from ..engine.rules.fights import weapon_left
from ..engine.rules.party import level_cost
from ..engine.rules.powers import has_power, power_cost
from ..engine.rules.traits import piece_av

REPORTS = ("member", "quest", "bestiary", "effects")
FLAG_WORDS = ((MF_METAL_EATER, "eats metal"), (MF_ARMOR_EATER, "eats armor"),
              (MF_DRAINER, "drains the ceiling"), (MF_XP_DRAINER, "drains XP"),
              (MF_FOOD_THIEF, "steals rations"), (MF_UNDEAD, "undead or fiend"),
              (MF_RANGED, "strikes from range"))  # fmt: skip
PRIME_WORDS = ((PRIME_FEROCIOUS, "ferocious strike"), (PRIME_DOUBLE, "double strike"),
               (PRIME_FOCUS, "focus"), (PRIME_DODGE, "dodge"), (PRIME_SMITE, "smite"),
               (PRIME_GROW, "grow sword"))  # fmt: skip


def members(s, e: int) -> list[int]:
    """Member slots in marching order."""
    return [int(m) for m in s.order[e] if m >= 0]


def gear_line(s, e: int, m: int, slot: int) -> str:
    """A worn piece with what it has left and what damaged it (DMG-1, GEAR-EAT-1..2)."""
    kind = int(s.item[e, m, slot])
    name = ("ready hand", "off hand", "armor")[slot]
    if kind == 0:
        return f"    {name}: empty"
    from .text import item_name

    wear, dv = int(s.item_wear[e, m, slot]), int(s.item_dv[e, m, slot])
    text = f"    {name}: {item_name(s, e, kind)}"
    if ITEMS[kind, I_CAT] == CAT_WEAPON:
        dice, flat = weapon_left(kind, wear)
        text += f", damage {dice}d6{f'+{flat}' if flat else ''}"
        if wear:
            text += f" (bitten by metal eaters: -{wear})"
    elif ITEMS[kind, I_DV] > 0:
        av = piece_av(s, e, m, slot)  # the Armorer's +1 and DV down to -5 included
        text += f", protection {av}, durability {dv}/{int(ITEMS[kind, I_DV])}"
        damaged = [what for what, hurt in (("ground by armor eaters", wear > 0),
                                           ("worn by blows", dv < ITEMS[kind, I_DV])) if hurt]  # fmt: skip
        if damaged:
            text += f" ({', '.join(damaged)})"
    return text


def member_status(s, p, e: int = 0) -> str:
    """MEMBER STATUS: HP as x/y with the ceiling, level, XP to the next level, mana, options,
    gear with what it has left and what damaged it, the pack, the powers ready."""
    from .text import item_name

    lines = ["MEMBER STATUS"]
    for pos, m in enumerate(members(s, e)):
        cls = int(s.cls[e, m])
        hp = "dead" if s.hp[e, m] <= 0 else f"HP {s.hp[e, m]}/{s.ceiling[e, m]}"
        to_next = int(level_cost(p, s.level[e, m])) - int(s.xp[e, m])
        lines.append(f"{pos + 1}. {CLASS_NAMES[cls]}: {hp}, level {s.level[e, m]} ({to_next} XP "
                     f"to the next), mana {s.mana[e, m]}/{s.well[e, m]}, attack +{s.atk[e, m]}, "
                     f"luck {s.luck[e, m]}, raised {s.raised[e, m]}x, AV {armor_value(s, e, m)}")  # fmt: skip
        if cls != KING:
            chosen = [CLASS_OPTIONS[cls][lv][int(s.options[e, m, lv])]
                      for lv in range(2) if s.options[e, m, lv] >= 0]  # fmt: skip
            if chosen:
                lines.append("    options: " + ", ".join(chosen))
        for slot in (READY, OFF_HAND, ARMOR):
            lines.append(gear_line(s, e, m, slot))
        pack = [item_name(s, e, int(k)) for k in s.item[e, m, NUM_EQUIP:] if k > 0]
        lines.append("    pack: " + (", ".join(pack) or "empty"))
        ready = [f"{POWER_NAMES[i]} ({power_cost(s, p, e, m, i)})" for i in range(NUM_POWERS)
                 if has_power(s, p, e, m, i)]  # fmt: skip
        if ready:
            lines.append("    powers (mana): " + ", ".join(ready))
        names = [
            TRUE_NAMES[n] for n in range(len(TRUE_NAMES)) if (int(s.names_known[e, m]) >> n) & 1
        ]
        if names:
            lines.append("    true names: " + ", ".join(names))
    return "\n".join(lines)


def quest_status(s, p, e: int = 0) -> str:
    """QUEST STATUS: the party, gold, rations, where the party is, and what is still to find."""
    depth = s.floor_visited.shape[1] - 1
    f = int(s.floor[e])
    where = "the courtyard" if f == 0 else f"floor {f} of {depth}"
    party = ", ".join(f"{CLASS_NAMES[s.cls[e, m]]}{'' if s.hp[e, m] > 0 else ' (dead)'}"
                      for m in members(s, e))  # fmt: skip
    still = []
    if not s.has_book[e]:
        still.append(f"the spellbook (floor {s.book_floor[e]})")
    if not s.has_king[e]:
        still.append(f"the king (floor {depth})")
    pages = [f"{SPELL_NAMES[i]} x{int(s.pages_held[e, i] + s.book_pages[e, i])}"
             for i in range(NUM_SPELLS) if s.pages_held[e, i] + s.book_pages[e, i] > 0]  # fmt: skip
    maps = [str(g) for g in range(1, depth + 1) if (int(s.maps_held[e]) >> g) & 1]
    lines = ["QUEST STATUS",
             f"  party: {party}",
             f"  {where}, pace {s.pace[e]} (hour {s.pace[e] // 60}), gold {s.gold[e]}, "
             f"rations {s.rations[e]}",
             f"  still to find: {', '.join(still) or 'nothing: bring the king home'}",
             f"  pages: {', '.join(pages) or 'none'}; maps of floors: {', '.join(maps) or 'none'}"]  # fmt: skip
    if s.hunting[e]:
        lines.append("  every band is hunting the party")
    return "\n".join(lines)


def bestiary(s, e: int = 0) -> str:
    """BESTIARY: every kind met, how often met and killed, and what it was seen to do."""
    lines = ["BESTIARY"]
    for kind, name in enumerate(MONSTER_NAMES):
        met = int(s.kind_met[e, kind])
        if met == 0:
            continue
        learned = int(s.kind_learned[e, kind])
        seen = [word for flag, word in FLAG_WORDS if learned & flag]
        lines.append(f"  {name}: met {met}x, killed {int(s.kind_killed[e, kind])}"
                     + (f"; seen to: {', '.join(seen)}" if seen else ""))  # fmt: skip
    if len(lines) == 1:
        lines.append("  nothing met yet")
    return "\n".join(lines)


def effects_pages(s, e: int = 0) -> list[str]:
    """EFFECTS: the party's page (each effect with its time left, good or bad), then one page
    per member (what is on it)."""
    party = ["EFFECTS: the party"]
    for k, name in enumerate(EFFECT_NAMES):
        if s.effects[e, k] > 0:
            bad = k == WARD and s.ward_foul[e]
            party.append(
                f"  {name}: {s.effects[e, k]} paces left ({'bad: the foul lantern' if bad else 'good'})"
            )
    if len(party) == 1:
        party.append("  nothing running")
    pages = ["\n".join(party)]
    for m in members(s, e):
        lines = [f"EFFECTS: {CLASS_NAMES[s.cls[e, m]]}"]
        for on, word in ((s.hidden[e, m], "hidden (not aimed at until it attacks)"),
                         (s.invisible[e, m], "invisible (until it attacks or casts)"),
                         (s.blessed[e, m], "blessed (+d6 to its d20 rolls this fight)"),
                         (s.blood_used[e, m], "used blood magic (no healing until a new floor)")):  # fmt: skip
            if on:
                lines.append(f"  {word}")
        for bit, word in PRIME_WORDS:
            if int(s.primed[e, m]) & bit:
                lines.append(f"  {word} set for the next blow")
        if s.hp[e, m] > s.ceiling[e, m]:
            lines.append(f"  aided past the ceiling ({s.hp[e, m]}/{s.ceiling[e, m]})")
        if len(lines) == 1:
            lines.append("  nothing on it")
        pages.append("\n".join(lines))
    return pages


def report(s, p, name: str, page: int = 0, e: int = 0) -> str:
    """Report `name` (REPORTS); `page` walks the effects pages."""
    if name == "member":
        return member_status(s, p, e)
    if name == "quest":
        return quest_status(s, p, e)
    if name == "bestiary":
        return bestiary(s, e)
    if name == "effects":
        pages = effects_pages(s, e)
        return pages[page % len(pages)] + f"\n  (page {page % len(pages) + 1} of {len(pages)})"
    raise ValueError(f"unknown report {name!r}; the reports are {', '.join(REPORTS)}")
