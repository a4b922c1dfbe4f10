"""Sixpence's hints (SIX-2): what the keeper says when each of his events happens, in the
project's own words, carrying the facts of seed 000. A person reads them (`delve play`, the
ansi render); an agent sees only the gift and the event (`status`, `info["keeper"]`)."""

from .engine.core.tables import ITEM_NAMES, KEEPER_EVENTS, KEEPER_GIFTS

HINTS = (
    "Sixpence leans on the courtyard gate: 'The king is at the bottom and the spellbook half "
    "way down. Walking heals you, but every pace eats into your rations. Take this ale.'",
    "'You found him! Now the bands will hunt you all the way up. Put him in the back of the "
    "line and get some real armour on him: here is ring mail.'",
    "'A spell page. Readers cast from the book once it is found; pages found before it wait "
    "for it. Ten rations, for the long way down.'",
    "'One of yours is down. A light of life stands a fallen friend up at 1 HP, but no one "
    "can be raised more than three times.'",
    "'Rust mites and their kin eat the steel in your hand, bonus first, then the dice. A "
    "spare axe, for when yours is gone.'",
    "'Rogues are the ones for chests: they spot a trap far more often. A coin for your pains.'",
    "'You have walked a long way without looking at your own people. Read a report now and "
    "then: it costs no time.' He flips you a coin.",
    "'That stair stays shut until you hold this floor's map. Find it in a room, or in a "
    "chest.' A coin.",
    "'Out of food! Hungry delvers lose a heart at every meal they miss. Ten rations on me.'",
    "'Running keeps the band where it was, wounds and all, and drops you in a hall. Here is "
    "this floor's map, so you need not run blind.'",
    "'Locks are a rogue's trade; anyone else bleeds for a wrong guess. Take this shield.'",
    "'You walked right past a secret door. Searching finds them, more surely in good light. "
    "Take this bow.'",
    "'Lanterns and scrolls run on the clock: walking spends them, fights do not. A coin.'",
    "'There is a store on this floor. It buys at half price, repairs what the eaters "
    "chewed, and sells the light of life. A honing stone, to start you off.'",
    "'That one grinds your shield first, then your armour, down to nothing. A new shield, "
    "until you find a store to repair the old one.'",
    "'A new level: more hearts, more mana, and at levels 2 and 3 a choice of what your "
    "class learns. This mind sharpener gets you to the next one sooner.'",
    "'Drainers take your ceiling, not your wounds, and it does not heal back. A gem of "
    "strength raises it again.'",
    "'The book and the king are yours and now every band is hunting. An aura of warding "
    "keeps the wanderers away for a while.'",
    "'They heard you coming. Listen at doors first: a band you hear can be sneaked on, "
    "bribed or left alone. This ESP scroll lets you hear every one.'",
    "'A statue breaks what it is underpaid to name. Bid at least what it asks. A coin.'",
    "'A band will take gold to let you pass, and the room with it. A goodwill scroll, read "
    "in a fight, makes them far more willing.'",
)
assert len(HINTS) == len(KEEPER_EVENTS)


def gift_name(k: int) -> str:
    """What Sixpence hands over for event k, in words."""
    kind, gold, rations, floor_map = (int(v) for v in KEEPER_GIFTS[k])
    if kind:
        return ITEM_NAMES[kind]
    if rations:
        return f"{rations} rations"
    if floor_map:
        return "this floor's map"
    return f"{gold} gold"


def said(bits: int) -> list[dict]:
    """The keeper's events in an `keeper_new` bit set, as {event, gift, hint} dicts."""
    return [{"event": KEEPER_EVENTS[k], "gift": gift_name(k), "hint": HINTS[k]}
            for k in range(len(KEEPER_EVENTS)) if (bits >> k) & 1]  # fmt: skip
