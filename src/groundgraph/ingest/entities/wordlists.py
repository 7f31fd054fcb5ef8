"""Small word lists that tell a name from a capitalised sentence start. Written for this project.

``COMMON_WORDS`` holds function words, pronouns, sentence adverbs, common imperative verbs,
titles, months and weekdays of English, German, French, Spanish, and the most frequent
function words of Italian, Portuguese and Dutch. A capitalised word in this list is taken
for a capital of position, not of a name. The lists are joined, not picked per language,
so mixed-language text needs no language guess; the cost is that a name spelled like a
function word of another language ("Die", "Sin") can be dropped at the edge of a name.

``GERMAN_HINTS`` and ``ENGLISH_HINTS`` are frequent words of each language that the other
rarely uses: counting them guesses whether a text capitalises every noun.
"""

from __future__ import annotations

from groundgraph.text import ENGLISH_STOPWORDS


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ENGLISH = """
a an the this that these those it its he she they we i you me him her us them my your his
our their mine yours ours theirs there here where when what which who whom whose why how
if then else so yet but and or nor not no yes also too very just only even still already
again ever never always often sometimes usually however therefore thus hence meanwhile
moreover furthermore nevertheless nonetheless instead otherwise indeed perhaps maybe
finally first second third next last later earlier now today yesterday tomorrow tonight
once after before during since until while although though because unless whether as at
by for from in into of off on onto out over per to under up upon via with within without
about above across against along among around behind below beneath beside besides
between beyond down inside near outside through throughout toward towards all any both
each either every few many more most much neither none other others several some such
own same another anyone anything everyone everything someone something nobody nothing is
are was were be been being am do does did done doing have has had having can could may
might must shall should will would let please thanks thank hello hi dear ok okay sure
well oh mr mrs ms dr prof sir madam st etc
use run add set make see read try check click open install edit push pull bring get put
take call start stop keep find go give ask tell show write send create build remove
delete update enable disable select choose follow visit contact download upload copy
move save load type press enter wait note remember consider ensure avoid
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
"""

_GERMAN = """
der die das den dem des ein eine einen einem einer eines und oder aber doch sondern denn
ist sind war waren wird werden wurde wurden hat haben hatte hatten kann können konnte
muss müssen soll sollen will wollen darf dürfen mag möchte ich du er sie es wir ihr mich
dich sich uns euch ihn ihm ihnen mein meine dein deine sein seine ihre ihren unser unsere
euer eure dieser diese dieses diesem diesen jener jene jenes man nicht kein keine keinen
auch nur noch schon sehr so wie wo wann was wer warum weil dass daß wenn als ob bis für
mit von zu zum zur bei nach aus auf an in im am um über unter vor hinter neben zwischen
durch gegen ohne seit während dann da dort hier heute gestern morgen jetzt immer nie oft
also jedoch deshalb trotzdem außerdem hallo danke bitte ja nein herr frau
januar februar märz april mai juni juli august september oktober november dezember
montag dienstag mittwoch donnerstag freitag samstag sonntag
"""

_FRENCH = """
le la les l un une des du de d et ou mais donc or ni car est sont était étaient sera être
avoir a ai as avons avez ont il elle ils elles on je tu nous vous me te se lui leur leurs
mon ma mes ton ta tes son sa ses notre nos votre vos ce cet cette ces qui que quoi dont où
quand comment pourquoi si ne pas plus très aussi bien encore déjà toujours jamais souvent
ici là dans sur sous avec sans pour par chez entre vers depuis pendant avant après selon
contre au aux en y bonjour merci oui non monsieur madame
janvier février avril mai juin juillet août septembre octobre novembre décembre
lundi mardi mercredi jeudi vendredi samedi dimanche
"""

_SPANISH = """
el la los las lo un una unos unas y e o u pero sino ni que qué quien quién como cómo donde
dónde cuando cuándo por para con sin sobre entre hasta desde hacia contra según durante
ante bajo es son era eran fue fueron será ser estar está están estaba hay ha han he tiene
tienen yo tú él ella ellos ellas nosotros vosotros usted ustedes me te se nos le les mi
mis tu tus su sus nuestro nuestra este esta estos estas ese esa esos esas aquel aquella
no sí muy más menos también ya aquí allí hoy ayer mañana siempre nunca hola gracias señor
señora del al de en a
enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre
lunes martes miércoles jueves viernes sábado domingo
"""

_OTHER = """
il lo gli i uno una di da con su per tra fra che non è sono ho
o os um uma do dos das no na nos nas em com não são
het een en van op met voor niet zijn
"""

COMMON_WORDS: frozenset[str] = (
    _word_set(_ENGLISH + _GERMAN + _FRENCH + _SPANISH + _OTHER) | ENGLISH_STOPWORDS
)

#: Lower-case words too general to make a key phrase, besides the common words.
GENERIC_WORDS: frozenset[str] = _word_set(
    """
    use used uses using make makes made making need needs needed want wants get gets got
    like one two three four five six seven eight nine ten lot lots new old good bad great
    best better worse worst big small large little long short high low different example
    examples thing things way ways time times part parts kind sort type number able
    really actually simply given based following such same other various several certain
    """
)

GERMAN_HINTS: frozenset[str] = _word_set(
    """
    der und ist nicht ein eine einen einem dem den des mit von zu auf für sich auch ich wir
    sie wird sind dass daß oder aber wie bei nach aus noch werden hat haben kann über zum
    zur vom im das ihre sein seine nur schon wenn
    """
)

ENGLISH_HINTS: frozenset[str] = _word_set(
    """
    the and is of to that it with for this are was on as be by from have has not which at
    or you they we his her their there been were would will can an
    """
)

#: Lower-case words that may join the capitalised words of one name ("Bank of England").
CONNECTORS: frozenset[str] = _word_set(
    "of de da di du del della des der den van von la le y bin ibn al zu dos do"
)
#: Two connectors in a row that may join a name ("Bank of the West", "van der Berg").
CONNECTOR_PAIRS: frozenset[tuple[str, str]] = frozenset(
    {
        ("of", "the"),
        ("de", "la"),
        ("de", "las"),
        ("de", "los"),
        ("van", "der"),
        ("van", "den"),
        ("von", "der"),
        ("von", "und"),
    }
)
#: Connectors kept in German text, where "der"/"den"/"des" between nouns are articles.
GERMAN_CONNECTORS: frozenset[str] = _word_set("von van zu de da di del")

#: Articles that may open a name even at a sentence start ("The Hague", "Los Angeles"); the
#: normaliser drops them from keys, so "The Atlas" and "Atlas" share one.
NAME_ARTICLES: frozenset[str] = _word_set("the le la les el los las il lo gli")

#: Verbs that, right after a sentence-initial capitalised word, make it a subject: "Aurora
#: was developed…", "Arizona is dry". ("Tomatoes went in" is not read as a name.)
SUBJECT_VERBS: frozenset[str] = _word_set(
    "is was are were has had have will would can could may might must shall should does did"
)

#: Abbreviations after which a full stop does not end the sentence.
ABBREVIATIONS: frozenset[str] = _word_set(
    "mr mrs ms dr prof st mt ft jr sr vs etc eg ie cf fig vol no nr bzw ca usw"
)
#: Abbreviations that are part of the name that follows ("St. Louis").
NAME_PREFIXES: frozenset[str] = _word_set("st mt ft")

#: Upper-case words that are shouted words, not acronyms.
NOT_ACRONYMS: frozenset[str] = _word_set(
    "OK AM PM NOTE TODO FIXME TIP INFO DONE NEW READ THE AND FOR NOT YES NO"
)


def is_common(lower: str) -> bool:
    """Whether a lower-case word is a common word, contractions included ("don't", "I'm")."""
    if lower in COMMON_WORDS:
        return True
    if "'" in lower or "’" in lower:
        head = lower.replace("’", "'").split("'", 1)[0]
        return head in COMMON_WORDS or lower.endswith(("n't", "n’t"))
    return False
