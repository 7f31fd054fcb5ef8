"""The Turkish causal cue table (written for this project).

Turkish marks cause with postpositions and suffixes after the cause (``kar nedeniyle``,
``yağdığı için``, ``yağdığından``), so most markers have the cause on their left; verbs
come last (``sele yol açtı``), so the left side of a verb marker holds both spans: the
effect is the case-marked noun phrase right before the verb (dative for ``yol açtı`` and
``neden oldu``, accusative for ``tetikledi``, ablative, the cause, for ``kaynaklandı``).
Negative verb forms (``yol açmadı``) are simply not in the patterns, nor the converb
``-(y)ınca`` ("when": ``eve gelince``), which tells a time far more often than a cause.
"""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import CueTable, cause_first, effect_first, words

# A verb made a noun by -dık/-acak: "yağdığı", "olduğum", "geldikleri", "yağacağı".
_DIK = (
    r"\w+(?:[dt][ıiuü]ğ[ıiuü](?:m|n|mız|miz|muz|müz|nız|niz|nuz|nüz)?|[dt][ıiuü]k(?:ları|leri)"
    r"|[ae]c[ae]ğ[ıi](?:m|n|mız|miz|nız|niz)?)"
)
# Tense and person endings of a verb stem: "açtı", "açıyordu", "açmıştı", "açabilir".
_TENSE = (
    r"(?:[dt][ıiuü]|[ıiuü]?yor(?:d[ıiuü]|m[ıiuü]ş)?|[aeıiuü]r|m[ıiuü]ş(?:t[ıiuü]r|t[ıiuü])?|"
    r"m[ae]kt[ae](?:d[ıi]r)?|[ae]bil(?:ir|di|iyor)|[ae]c[ae]k(?:t[ıi]r)?)(?:l[ae]r)?"
)
_DATIVE = r"[\w'’]*(?:[ae])"
_ACCUSATIVE = r"[\w'’]*(?:[ıiuü])"
_INSTRUMENTAL = r"[\w'’]*(?:[yl][ae]|ile)"
_ABLATIVE = r"[\w'’]*(?:[dt][ae]n)"
_GENITIVE = r"[\w'’]*(?:[ıiuü]n)"

TURKISH = CueTable(
    language="tr",
    stemmer="turkish",
    cues=(
        cause_first(
            "yol açtı",
            rf"yol\s+aç{_TENSE}",
            split=_DATIVE,
        ),
        cause_first(
            "neden oldu",
            rf"(?:neden|sebep)\s+ol{_TENSE}|sebebiyet\s+ver{_TENSE}",
            split=_DATIVE,
        ),
        cause_first(
            "tetikledi",
            rf"tetikle(?:{_TENSE}|yebilir)|doğur{_TENSE}|beraberinde\s+getir{_TENSE}",
            split=_ACCUSATIVE,
        ),
        cause_first(
            "sonuçlandı",
            rf"(?:ile\s+)?sonuçlan{_TENSE}",
            split=_INSTRUMENTAL,
        ),
        cause_first(
            "nedeniyle",
            r"nedeniyle|sebebiyle|yüzünden|sayesinde|sonucunda|sonucu\s+olarak|dolayı|ötürü|"
            r"etkisiyle",
        ),
        cause_first("-dığı için", rf"{_DIK}\s+(?P<cue>için)"),
        cause_first("-ması sonucu", r"(?<=m[ae]s[ıi]\s)sonucu(?!\s*[.;!?]|$)"),
        cause_first(  # not "-dığından beri" (ever since)
            "-dığından",
            rf"{_DIK}n?(?:dan|den)(?!\s+(?:beri|bu\s+yana)\b)(?P<cue>)(?:\s+dolayı)?",
        ),
        cause_first("dolayısıyla", r"dolayısıyla", link=True),
        cause_first(
            "bu yüzden",
            r"(?:bu|o)\s+(?:yüzden|nedenle|sebeple|sayede|sebepten|nedenden(?:\s+dolayı)?)|"
            r"bundan\s+dolayı|bunun\s+sonucu\s+olarak|"
            r"bunun\s+(?:sonucunda|üzerine)|böylece|sonuç\s+olarak",
            adverb=True,
        ),
        effect_first("çünkü", r"çünkü|zira", link=True),
        effect_first(
            "kaynaklandı",
            rf"kaynaklan{_TENSE}|ileri\s+gel{_TENSE}",
            split=_ABLATIVE,
        ),
        effect_first(  # "kanserden öldü": the ablative before a verb of dying or suffering
            "-dan öldü",
            rf"(?:öl{_TENSE}|hayatını\s+kaybet{_TENSE}|muzdarip(?:ti|tir)?)",
            split=_ABLATIVE,
        ),
        effect_first(  # "X, Y'nin bir sonucuydu": the effect is the subject
            "sonucudur",
            r"(?:(?:doğal|doğrudan|bir)\s+)*(?:sonucu|ürünü|eseri)(?:dur|dür|ydu|ydü|ymuş|dır|dir)?"
            r"(?=\s*(?:[.;!?]|$))",
            split=_GENITIVE,
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
    topic=words("da de ise"),
    light=words("oldu olmuştu olmuştur oluyor olur mümkün gerçekleşti sağlandı"),
    modifiers=words(
        "bir birçok çok bazı birkaç yüzlerce binlerce onlarca milyonlarca tüm bütün her büyük "
        "küçük ciddi ağır şiddetli yoğun yüksek düşük yeni eski ani sert geniş uzun kısa önemli "
        "kalıcı derin"
    ),
    # A genitive ("fiyatların artması") or a -ki adjective ("sudaki oksijen").
    attach=re.compile(r"[\w'’]+(?:[ıiuü]n|n[ıiuü]n|[dt][ae]ki)$", re.IGNORECASE),
    # "iptal edilmesi" (a light verb's noun), "elektrik kesintisi" (possessive after a vowel).
    compound=re.compile(
        r"^(?:(?:et|edil|ol|yap|ver)\w+|\w+s[ıiuü](?:n[ae]|n[ıiuü]|nd[ae]n|yl[ae]|n?)?|"
        r"\w+l[ae]r[ıi](?:n[ae]|n[ıi]|nd[ae]n|yl[ae])|\w+[ıiuü]nd[ae]n)$",
        re.IGNORECASE,
    ),
)
