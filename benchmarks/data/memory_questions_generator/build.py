import json, random, re, sys, collections
sys.path.insert(0, '.')
from facts_chains import CHAIN
from facts_distract import DISTRACT
from questions import QUESTIONS

items = [(k, d, t) for k, (d, t) in CHAIN.items()] + [(f"x{i}", d, t) for i, (d, t) in enumerate(DISTRACT)]
texts = [t for _, _, t in items]
assert len(texts) == len(set(texts)), [t for t, c in collections.Counter(texts).items() if c > 1]
rng = random.Random(20240717)
rng.shuffle(items)
# superseded fact must come before its correction (ids roughly chronological)
pairs = [("B1", "B1c"), ("D1", "D2"), ("I1", "I1c"), ("M1", "M1c"), ("R1", "R3"), ("R3", "R3c"), ("U1", "U1c")]
changed = True
while changed:
    changed = False
    for old, new in pairs:
        pos = {k: i for i, (k, _, _) in enumerate(items)}
        if pos[old] > pos[new]:
            i, j = pos[new], pos[old]
            items[i], items[j] = items[j], items[i]
            changed = True
key2id = {}
with open('/work/blind/memory-facts.jsonl', 'w') as f:
    for n, (k, d, t) in enumerate(items, 1):
        fid = f"f{n:03d}"
        key2id[k] = fid
        f.write(json.dumps({"id": fid, "text": t, "domain": d}) + "\n")
with open('/work/blind/memory-questions.jsonl', 'w') as f:
    for n, (q, rel, kind, note) in enumerate(QUESTIONS, 1):
        note = re.sub(r"\b([A-Z]{1,3}\d?c?)\b", lambda m: key2id[m.group(1)] if m.group(1) in key2id and m.group(1) not in ("Q3", "S3") else m.group(1), note)
        f.write(json.dumps({"id": f"q{n:02d}", "question": q, "relevant": [key2id[k] for k in rel], "kind": kind, "note": note}) + "\n")
json.dump(key2id, open('/tmp/memgen/key2id.json', 'w'), indent=0)
