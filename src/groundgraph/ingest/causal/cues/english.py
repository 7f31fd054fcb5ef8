"""The English causal cue table (written for this project)."""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import ASIDE as _ASIDE
from groundgraph.ingest.causal.cues.table import SPAN as _SPAN
from groundgraph.ingest.causal.cues.table import (
    Cue,
    CueTable,
    cause_first,
    effect_first,
    in_turn,
    participle_opener,
    words,
)

_ADV = r"(?:\w+ly\s+)?"  # one optional -ly adverb: "led directly to", "due largely to"
# Intransitive verbs of change after a causative "made" ("made the ice cream melt").
_CHANGE = (
    r"(?:melt|fall|rise|drop|collapse|crash|fail|stop|break|burst|freeze|rot|wilt|die|quit|"
    r"leave|lose|miss|panic|slip|skid|cry|laugh|sneeze|cough|shrink|swell|spoil|fade|sink|"
    r"soar|plunge|plummet|tumble|overheat|overflow|shut|close|crack|jump|flee|resign|vomit|"
    r"faint|wake|itch|ache|bleed|explode|spike|surge|skyrocket|go|run|turn|feel|look|seem|"
    r"burn|sting|flood|stall|slide|wither)"
)
# Verbs of sanction and reward: "fired for misconduct", "fined for speeding".
_SANCTION = (
    r"(?:fired|sacked|dismissed|arrested|detained|jailed|imprisoned|convicted|sentenced|"
    r"fined|punished|penali[sz]ed|suspended|expelled|banned|disqualified|sued|prosecuted|"
    r"charged|indicted|critici[sz]ed|condemned|blamed|praised|rewarded|honou?red|"
    r"hospitali[sz]ed|treated|recalled|grounded|impeached|deported|evicted|ticketed|"
    r"reprimanded|penalties|apologi[sz]ed|famous|notorious)"
)
_MOTIVE = (
    r"(?:sheer\s+|pure\s+)?(?:fear|curiosity|spite|jealousy|anger|frustration|desperation|"
    r"boredom|habit|necessity|respect|pity|kindness|gratitude|concern|guilt|shame|panic|love|"
    r"loyalty|revenge|envy|greed|exhaustion|caution|courtesy|ignorance|negligence)"
)

# "due to" before a verb is a schedule ("due to arrive"), not a cause.
_DUE_VERBS = (
    "be arrive start begin open close finish end expire launch return leave depart meet take "
    "come go retire appear report speak visit deliver land resume run play release publish "
    "sign hold present announce give make complete reopen receive submit pay get have"
)
_NOUN_BEFORE = (
    "the a an its their his her our my your this that these those main root primary common "
    "probable likely possible real underlying leading one no good first major same single "
    "chief true actual direct known unknown official exact immediate second third lost just"
)
_ADJECTIVE = (
    r"(?:harder|easier|impossible|difficult|hard|possible|worse|better|more|less|slippery|"
    r"sick|ill|angry|happy|sad|unsafe|dangerous|slower|faster|cheaper|costlier|late|later|"
    r"tired|nervous|anxious|weak|weaker|stronger|vulnerable|expensive|unusable|unstable|"
    r"useless|unreadable|unreachable|unavailable|redundant|obsolete|\w+(?:able|ible|ous|less))"
)
_PLACES = (
    r"\b(?:road|path|street|door|trail|stairs?|staircase|corridor|hallway|route|track|gate|"
    r"tunnel|exit|entrance|bridge|way|lane|avenue|highway|passage|ladder|stairway)s?\s+"
    r"(?:\w+\s+)?(?:leads?|led|leading)\s+to\b"
)

ENGLISH = CueTable(
    language="en",
    stemmer="english",
    cues=(
        participle_opener(
            r"[a-z]{3,}ed|worn|broken|bitten|stung|frozen|driven|beaten|stuck|caught|shaken|torn|burnt|burned|soaked|overwhelmed|blinded",
            r"born|located|situated|founded|built|named|called|known|based|dressed|seated|married|raised|armed|signed|dated|published|released|produced|written|directed|designed|painted|printed|made|used|indeed|ahead|instead|hundred|naked|wicked|sacred|kindred|red|bed|need|seed|speed|feed|weed|assumed|compared|combined|given|considered|regarded|added|related|connected|located|inspired|pictured|supported|backed|sponsored|powered|hosted|organized|organised|owned|led|united",
        ),
        Cue(  # "Unable to find a surgeon, the clinic …": an adjective of state opening
            name="participle",
            pattern=re.compile(
                r"^\W*(?P<cause>(?:unable|afraid|desperate|anxious|eager|unwilling|too\s+\w+|"
                r"short\s+of|out\s+of\s+(?:money|fuel|time|options|breath|work|cash|stock)|"
                r"fearful|unsure|worried|furious|angry|ashamed|sick\s+of|tired\s+of|"
                r"fed\s+up)\b[^,;:.!?]{0,90}?)(?P<cue>,)",
                re.IGNORECASE,
            ),
            left="cause",
        ),
        Cue(  # "With the bridge closed, lorries had to …": an absolute "with" opening
            name="participle",
            pattern=re.compile(
                r"^\W*with\s+(?P<cause>[^,;:.!?]{3,80}?\s(?:[a-z]+ed|shut|down|out|gone|broken|"
                r"frozen|stuck|empty|full|over|missing|injured|ill|sick|off|flooded|blocked|"
                r"cancell?ed|delayed)(?:\s+(?:for|by|since|after|at|in|on)\s[^,;:.!?]{1,40})?)"
                r"(?P<cue>,)",
                re.IGNORECASE,
            ),
            left="cause",
        ),
        cause_first(
            "leads to",
            rf"(?:lead|leads|led|leading)(?:\s+{_ADV}|{_ASIDE})to",
            reject=_PLACES,
            not_before="was were been being is are be get got",
        ),
        cause_first(
            "causes",
            r"(?:cause|causes|caused|causing)(?!\s+(?:of|for|behind)\b)",
            not_before=_NOUN_BEFORE,
        ),
        cause_first(
            "results in",
            r"(?:result|results|resulted|resulting)\s+in",
            not_before="the a our their these those its my his her your some first early",
        ),
        cause_first(
            "triggers", r"(?:trigger|triggers|triggered|triggering)", not_before=_NOUN_BEFORE
        ),
        cause_first("sparked", r"(?:sparked|sparking|sparks\s+off)"),
        cause_first("prompted", r"prompted|prompting"),
        cause_first(
            "provoked",
            r"(?:provoked|provoking|induced|inducing|spurred|spurring|fuelled|fueled|fuelling|"
            r"fueling|precipitated|precipitating|(?:set|sets|setting|touched|touching)\s+off|"
            r"(?:brought|bringing)\s+on)(?!\s+by\b)",
            not_before="was were been being is are be get got",
        ),
        cause_first(
            "is the cause of",
            r"(?:is|are|was|were|be|been|became|becomes|remains|remained)\s+"
            r"(?:the|a|an|one\s+of\s+the)\s+(?:\w+\s+){0,2}?"
            r"(?:cause|causes|source|trigger|root)\s+(?:of|for|behind)",
        ),
        cause_first(
            "is to blame for", r"(?:is|are|was|were|be|been)\s+(?:partly\s+)?to\s+blame\s+for"
        ),
        cause_first(
            "left … without",
            r"(?:left|leaves|leaving)(?=\s+[^,;:.!?]{1,60}?\s+without\b)",
            not_before="was were been being is are be",
        ),
        cause_first("brings about", r"(?:bring|brings|brought|bringing)\s+about"),
        cause_first("gives rise to", r"(?:give|gives|gave|given|giving)\s+rise\s+to"),
        cause_first(
            "contributes to", rf"(?:contribute|contributes|contributed|contributing)\s+{_ADV}to"
        ),
        cause_first(
            "makes",
            rf"(?:make|makes|made|making)(?=(?:\s+[\w'’-]+){{0,3}}\s+{_ADJECTIVE}\b)",
            not_before="the a",
        ),
        cause_first(
            "drives up", r"(?:drive|drives|drove|driving|push|pushes|pushed|pushing)\s+(?:up|down)"
        ),
        cause_first(
            "drives up",
            rf"(?:drove|drives|pushed|pushes|sent|sends)\s+(?P<effect>{_SPAN})\s+"
            r"(?:up|down|higher|lower)",
        ),
        cause_first(
            "forced",
            r"forced|forcing|compelled|compelling",
            not_before="was were been being is are be get got",
        ),
        cause_first(
            "makes",
            rf"(?:made|makes|making)(?=(?:\s+[\w'’-]+){{1,6}}\s+{_CHANGE}\b)",
            not_before="the a was were been being is are be get got",
        ),
        cause_first("that is why", r"(?:that|this|which)(?:\s+is|\s+was|['’]s)\s+why", link=True),
        cause_first("is why", r"(?:is|was)\s+why"),
        cause_first("which meant", r"which\s+(?:meant|means)(?:\s+that)?"),
        cause_first(
            "meant that",
            r"meant(?:\s+that)?(?!\s+(?:to|nothing|well|business|for|by|as|it)\b)",
            not_before="i you we they he she it what who which word name term always never",
        ),
        cause_first(  # "The scandal cost the minister his job"
            "cost",
            r"(?:cost|costs|costing)(?=\s+(?:[\w'’-]+\s+){1,3}?(?:his|her|their|its|the|a)\s+"
            r"(?:\w+\s+)?(?:job|jobs|life|lives|seat|seats|title|place|licen[cs]e|career|"
            r"freedom|home|homes|sight|win|match|election|majority|contract|position|post)\b)",
        ),
        cause_first(
            "left … dead",
            r"(?:left|leaves|leaving)(?=\s+[^,;:.!?]{1,60}?\s+(?:dead|injured|homeless|stranded|"
            r"unable|without|with\s+no|in\s+the\s+dark|out\s+of\s+work|jobless)\b)",
            not_before="was were been being is are be",
        ),
        cause_first(  # ", trapping five people": a result clause after a comma
            "causing",
            r"(?<=,\s)(?P<effect>(?:killing|injuring|trapping|stranding|destroying|damaging|"
            r"flooding|halting|disrupting|delaying|cutting\s+off|knocking\s+out|wiping\s+out|"
            r"bringing\s+\w+(?:\s+\w+)?\s+to\s+a\s+(?:halt|standstill)|sending|raising|"
            r"boosting|pushing|infecting)\b[^,;:.!?]{0,120})",
            link=True,
        ),
        cause_first(  # ", so that the wall crumbled": a result, not a purpose ("so that we can")
            "so that",
            r"(?<=,\s)so\s+that",
            link=True,
            reject=r"\bso\s+that\s+(?:\w+\s+){1,5}?(?:can|could|would|will|might|may|"
            r"should|shall)\b",
        ),
        cause_first(  # "fees have led fewer students to enrol"
            "leads to",
            r"(?:lead|leads|led|leading)(?=\s+(?:[\w'’-]+\s+){1,5}?to\s+"
            r"(?!(?:the|a|an|his|her|their|its|our|my|your|victory|safety|defeat)\b)[a-z]+\b)",
            not_before="was were been being is are be get got",
            reject=_PLACES,
        ),
        cause_first("thereby", r"(?<=,\s)(?:thereby|thus)(?=\s+\w+ing\b)"),
        cause_first(
            "so",
            r"(?:(?<=[,;]\s)|(?<=\band\s)|^)so"
            r"(?!\s+(?:far|long|that|as|to|too|on|forth|called|-called)\b)"
            r"(?!\s+\w+\s*(?:[.!?,;]|$))",  # "so far, so good": an intensified last word
            link=True,
        ),
        cause_first(
            "so … that",
            r"(?:so|such)\s+(?:an?\s+)?(?:\w+\s+){0,2}?\w+\s+(?P<cue>that)|"
            r"(?:to\s+the\s+point|so\s+much\s+so)\s+(?:that|where)",
        ),
        cause_first("therefore", adverb=True),
        cause_first("thus", r"thus(?!\s+far\b)", adverb=True),
        cause_first("hence", adverb=True),
        cause_first("consequently", r"consequently|accordingly", adverb=True),
        cause_first(
            "as a result",
            r"as\s+an?\s+(?:direct\s+)?(?:result|consequence)(?!\s+of)|in\s+consequence(?!\s+of)",
            adverb=True,
        ),
        cause_first("for this reason", r"for\s+(?:this|that|these|those)\s+reasons?", adverb=True),
        effect_first("because of", rf"{_ADV}because\s+of", lead=True),
        effect_first("because", lead=True),
        effect_first(
            "due to",
            rf"due\s+(?:\w+ly\s+|in\s+(?:large\s+|great\s+|no\s+small\s+)?part\s+)?to"
            rf"(?!\s+(?:{_DUE_VERBS.replace(' ', '|')})\b)",
            lead=True,
        ),
        effect_first("owing to", lead=True),
        effect_first(
            "thanks to",
            lead=True,
            not_before="say said says saying give gave giving extend our my special many big a",
        ),
        effect_first(
            "as a result of",
            r"as\s+an?\s+(?:direct\s+)?(?:result|consequence)\s+of|in\s+consequence\s+of",
            lead=True,
        ),
        effect_first("on account of", lead=True),
        effect_first(
            "in view of",
            r"in\s+(?:view|light)\s+of|seeing\s+(?:that|as)|inasmuch\s+as|now\s+that|"
            r"in\s+response\s+to|for\s+(?:lack|want|fear)\s+of|by\s+virtue\s+of",
            lead=True,
        ),
        effect_first("out of", rf"out\s+of(?=\s+{_MOTIVE}\b)", lead=True),
        effect_first("in the wake of", r"in\s+the\s+(?:wake|aftermath)\s+of", lead=True),
        effect_first(
            "under the weight of",
            r"under\s+the\s+(?:weight|strain|pressure|burden)\s+of",
            lead=True,
        ),
        cause_first(
            "accounts for",
            r"(?:accounts|accounted|account)\s+for(?!\s+(?:\d|about|around|almost|nearly|over|"
            r"more|less|half|a\s+(?:third|quarter|fifth|tenth|large|small|big|significant)|"
            r"most|much|the\s+(?:bulk|majority|rest|remainder|lion)|one|two|three|some)\b)",
        ),
        effect_first(
            "down to",
            rf"(?:is|was|were|are|be|been)\s+{_ADV}down\s+to(?!\s+(?:\d|one|two|three|four|"
            r"five|six|seven|eight|nine|ten|the\s+last|earth|the\s+wire)\b)",
        ),
        effect_first(  # "fired for misconduct", "sentenced to five years for fraud"
            "for",
            rf"{_SANCTION}(?:\s+[\w'’-]+){{0,4}}?\s+(?P<cue>for)"
            r"(?!\s+(?:the\s+)?(?:first|second|third|last|\d+|a\s+(?:week|month|year|day)|"
            r"(?:several|two|three|four|five|six|many)\s+\w+|life|now|years|months|weeks|days|"
            r"hours|good|ever)\b)",
        ),
        effect_first("by", r"^\W*by(?=\s+(?:not\s+)?\w{2,}ing\b)", lead=True),
        effect_first(  # verbs of undergoing: "died from", "suffering from", "wilted from"
            "from",
            r"(?:died|dies|dying|suffers|suffered|suffering|wilted|wilting|perished|withered"
            r"|sickened)\s+(?P<cue>from)|(?:died|dies|dying|perished)\s+(?P<cue2>of)",
        ),
        effect_first("the reason being", r"the\s+reason\s+being(?:\s+that)?"),
        effect_first(  # "… The reason was a faulty cable.": the effect is the sentence before
            "the reason was",
            r"^\W*the\s+(?:main\s+|real\s+|official\s+)?(?:reason|cause)\s+(?:for\s+(?:this|that)"
            r"\s+|behind\s+(?:this|that|it)\s+)?(?:was|is)(?:\s+that)?",
            link=True,
        ),
        effect_first("given that", r"given\s+that", lead=True),
        effect_first(  # ", as he had crashed": causal "as" after a comma, with a finite verb
            "as",
            r"(?<=,\s)as(?=\s+(?:[\w'’]+\s+){1,4}?(?:had|has|have|is|are|was|were|"
            r"could|couldn't|can't|cannot|did|didn't|wasn't|weren't|hadn't)\s+(?!\w+ing\b))",
            reject=r"\b(?:such|same|as)\s+\w+\s*,\s+as\b|\bjust\s*,\s+as\b",
        ),
        effect_first(
            "since",
            r"since(?=\s+(?:[\w'’]+\s+){0,4}?(?:is|are|am|was|were|isn't|aren't|wasn't|weren't|"
            r"has|have|had|"
            r"can|can't|cannot|could|couldn't|will|won't|would|must|should|do|does|did|"
            r"don't|doesn't|didn't)\b)",
            lead=True,
            # a perfect before "since" makes it temporal ("have lived here since"); one
            # inside the since-clause does not ("…, since it has rained every day")
            reject=r"\b(?:has|have|had)\s+(?:\w+\s+)?(?:been|\w+ed|known|grown|seen)\b"
            r"(?=.*\bsince\b)|['’]ve\b(?=.*\bsince\b)"
            r"|^\W*since\b[^,]*,.*(?:\b(?:has|have|had)\s+(?:\w+\s+)?(?:been|\w+ed|known|grown"
            r"|seen)\b|['’]ve\b)"
            r"|\bever\b|\bsince\s+(?:then|childhood)\b",
        ),
        effect_first(
            "caused by",
            r"(?:caused|triggered|sparked|prompted|brought\s+(?:about|on)|fuelled|fueled|"
            r"provoked|induced|spurred|precipitated)\s+"
            rf"{_ADV}by",
        ),
        effect_first("driven by", rf"(?:is|are|was|were|been|being)\s+{_ADV}driven\s+{_ADV}by"),
        effect_first("results from", rf"(?:result|results|resulted|resulting)\s+{_ADV}from"),
        effect_first("stems from", rf"(?:stem|stems|stemmed|stemming)\s+{_ADV}from"),
        effect_first("arises from", rf"(?:arise|arises|arose|arisen|arising)\s+{_ADV}from"),
        effect_first(
            "is the result of",
            rf"(?:is|are|was|were|be|been)\s+{_ADV}(?:the|a|an)\s+(?:\w+\s+)?"
            r"(?:result|consequence|outcome|product)\s+of",
        ),
        effect_first("attributed to", rf"(?:attributed|attributable)\s+{_ADV}to"),
        effect_first(
            "blamed on",
            rf"(?:blamed|blames|blame)\s+{_ADV}on|(?:put|puts)\s+down\s+to|"
            r"(?:traced|traces)\s+(?:back\s+)?to",
        ),
        effect_first(
            "the reason for",
            r"the\s+(?:\w+\s+)?(?:reason|cause)\s+(?:for|of|behind|why)\s+"
            rf"(?P<effect>{_SPAN})\s+(?:is|was|were|are|has\s+been)",
        ),
    ),
    in_turn=in_turn(r"in\s+turn"),
    stopwords=words(
        "the of and to in is was that for it with as on be at by this are from have has had "
        "not but were which or an will would their there been they we you he she his her its "
        "than then them these also into who what when where why because so if do does did i "
        "my our your can could should about after before over more most such only other some"
    ),
    articles=words("the a an"),
    trailing=words(
        "is are was were be been being am has have had will would shall should can could may "
        "might must do does did also often largely mainly mostly partly partially probably "
        "possibly likely perhaps simply just only directly eventually ultimately apparently "
        "reportedly allegedly indirectly primarily chiefly then"
    ),
    leading=words("and but or then so yet also"),
    coordinators=words("and or"),
    finite=words(
        "is are was were has have had will would can could must should did does do may might "
        "got became remained kept fell rose went came stayed"
    ),
    subject=words(
        "the a an this that these those his her its their our my your we they he she it i "
        "many most some several all no there"
    ),
    negators=words("not never no hardly barely neither nor without cannot"),
    denials=words("no nothing none neither"),
    unknown=re.compile(
        r"^(?:still\s+|yet\s+|currently\s+|as\s+yet\s+)?(?:unknown|unclear|not\s+known|"
        r"uncertain|a\s+mystery|under\s+investigation|being\s+investigated|disputed)",
        re.IGNORECASE,
    ),
    relatives=words("which who whom whose where"),
    demonstratives=words("this that these those"),
    breakers=words("but however although though whereas while unless"),
)
