"""The Turkish causal cue table (written for this project).

Turkish marks cause with postpositions and suffixes after the cause (``kar nedeniyle``,
``yağdığı için``, ``yağdığından``), so most markers have the cause on their left; verbs
come last (``sele yol açtı``), so the left side of a verb marker holds both spans: the
effect is the case-marked noun phrase right before the verb (dative for ``yol açtı`` and
``neden oldu``, accusative for ``tetikledi``, ablative, the cause, for ``kaynaklandı``).
Negative verb forms (``yol açmadı``) are simply not in the patterns.
"""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import CueTable, cause_first, effect_first, words

# A verb made a noun by -dık/-acak: "yağdığı", "olduğum", "geldikleri", "yağacağı".
_DIK = (
    r"\w+(?:[dt][ıiuü]ğ[ıiuü](?:m|n|mız|miz|muz|müz|nız|niz|nuz|nüz)?|[dt][ıiuü]k(?:ları|leri)"
    r"|[ae]c[ae]ğ[ıi](?:m|n|mız|miz|nız|niz)?)"
)
_DATIVE = r"[\w'’]*(?:[ae])"
_ACCUSATIVE = r"[\w'’]*(?:[ıiuü])"
_INSTRUMENTAL = r"[\w'’]*(?:[yl][ae]|ile)"
_ABLATIVE = r"[\w'’]*(?:[dt][ae]n)"

TURKISH = CueTable(
    language="tr",
    stemmer="turkish",
    cues=(
        cause_first(
            "yol açtı",
            r"yol\s+aç(?:tı|ar|ıyor|abilir|mıştır|mış|maktadır|acak|acaktır|tı)",
            split=_DATIVE,
        ),
        cause_first(
            "neden oldu",
            r"(?:neden|sebep)\s+ol(?:du|ur|uyor|abilir|muştur|muş|maktadır|acak|acaktır)|"
            r"sebebiyet\s+ver(?:di|ir|iyor|miştir)",
            split=_DATIVE,
        ),
        cause_first(
            "tetikledi",
            r"tetikle(?:di|r|yor|yebilir|miştir|mişti)|doğurdu|doğurur",
            split=_ACCUSATIVE,
        ),
        cause_first(
            "sonuçlandı",
            r"(?:ile\s+)?sonuçlan(?:dı|ır|ıyor|mıştır|abilir)",
            split=_INSTRUMENTAL,
        ),
        cause_first(
            "nedeniyle",
            r"nedeniyle|sebebiyle|yüzünden|sayesinde|sonucunda|sonucu\s+olarak|dolayı|ötürü|"
            r"etkisiyle",
        ),
        cause_first("-dığı için", rf"{_DIK}\s+(?P<cue>için)"),
        cause_first("-dığından", rf"{_DIK}n?(?:dan|den)(?P<cue>)(?:\s+dolayı)?"),
        cause_first("dolayısıyla", r"dolayısıyla", link=True),
        cause_first(
            "bu yüzden",
            r"(?:bu|o)\s+(?:yüzden|nedenle|sebeple|sayede)|bundan\s+dolayı|"
            r"bunun\s+(?:sonucunda|üzerine)|böylece|sonuç\s+olarak",
            adverb=True,
        ),
        effect_first("çünkü", r"çünkü|zira", link=True),
        effect_first(
            "kaynaklandı", r"kaynaklan(?:dı|ıyor|ır|maktadır|mıştır|abilir)", split=_ABLATIVE
        ),
        effect_first(
            "nedeni",
            r"(?:en\s+büyük\s+|asıl\s+|temel\s+|başlıca\s+)?(?:nedeni|sebebi)",
        ),
    ),
    stopwords=words(
        "ve bir bu da de için ile çok daha gibi ama olarak sonra kadar ne her en şu mi mı mu "
        "mü ki veya ya diye çünkü olan olduğu ise hem değil var yok göre bunu buna şey ben "
        "sen biz siz onlar"
    ),
    articles=words("bir"),
    trailing=words("da de bile ise"),
    leading=words("ve ama fakat ancak da de ise"),
    coordinators=words("ve veya ile ya da"),
    negators=words("değil"),
    denials=words("hiçbir hiç"),
    unknown=re.compile(
        r"^(?:hâlâ\s+|henüz\s+|halen\s+)?(?:bilinmiyor|belirsiz|bilinmemektedir|açıklanmadı|"
        r"araştırılıyor)",
        re.IGNORECASE,
    ),
    demonstratives=words("bu o şu bunlar bunun onun bundan"),
    breakers=words("ama fakat ancak oysa"),
    letters="ışğİ",
    topic=words("da de"),
    modifiers=words(
        "bir birçok çok bazı birkaç yüzlerce binlerce onlarca milyonlarca tüm bütün her büyük "
        "küçük ciddi ağır şiddetli yoğun yüksek düşük yeni eski ani sert geniş uzun kısa önemli "
        "kalıcı derin"
    ),
    attach=re.compile(r"[\w'’]+(?:[ıiuü]n|n[ıiuü]n)$", re.IGNORECASE),
    # "iptal edilmesi" (a light verb's noun), "elektrik kesintisi" (possessive after a vowel).
    compound=re.compile(
        r"^(?:(?:et|edil|ol|yap|ver)\w+|\w+s[ıiuü](?:n[ae]|n[ıiuü]|nd[ae]n|yl[ae]|n?)?)$",
        re.IGNORECASE,
    ),
)
