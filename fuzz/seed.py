#!/usr/bin/env python3
"""seed.py BUILD_DIR OUT_DIR [HARNESS...]: raw seed inputs for the decode
harnesses (fuzz_decode_<scheme>, fuzz_detect), from spec/vectors, written
under OUT_DIR/<harness>/.  fuzz/run.sh -seed merges them (libFuzzer -merge=1)
into fuzz/corpus/<harness>/, which is what is committed.

Every short string of the scheme's vector file becomes a text seed: for the
codec its key names (a FLUID vector's "f58"), else for every codec and for
detection.  Every hex string of any vector file becomes a value: its bytes
(the bytes mode) and its text in each codec, as the harness itself writes
them (IDS_FUZZ_ENCODE), so that schemes without vectors of their own (the
scripted ones) start from well-formed text too.  Vectors are only read.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(os.path.dirname(HERE), "spec", "vectors")
OWN = {"fluid": "fluid", "flax": "flax", "snowflake": "snowflake",
       "siq": "siq", "kuid64": "kuid", "kuid96": "kuid"}
PROSE = re.compile(r"note|why|how|utc|repr|description|reference|python|"
                   r"implementation|generated|schema|source|meta|errno|call")
HEX = re.compile(r"^(0x)?([0-9a-fA-F]{1,40})$")


def strings(x, key=None):
    """(key, string) for every string leaf under x."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield from strings(v, k)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v, key)
    elif isinstance(x, str):
        yield key or "", x


def load(name):
    with open(os.path.join(VECTORS, name + ".json"), encoding="utf-8") as f:
        return list(strings(json.load(f)))


def write(out, sel, payload):
    data = bytes([sel]) + payload if sel is not None else payload
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def main():
    build, outdir = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or [h for h in open(
        os.path.join(build, "fuzz", "harnesses.txt")).read().split()
        if h.startswith("fuzz_decode_") or h == "fuzz_detect"]
    allhex = sorted({m.group(2).lower() for f in set(OWN.values())
                     for _, v in load(f) for m in [HEX.match(v)] if m})
    allhex += ["0", "1", "f" * 40, "8" + "0" * 39]
    for h in names:
        exe = os.path.join(build, "fuzz", h)
        scheme = "fluid" if h == "fuzz_detect" else h[len("fuzz_decode_"):]
        codecs = subprocess.run([exe], env=dict(os.environ,
                                IDS_FUZZ_CODECS="1"), capture_output=True,
                                text=True, check=True).stdout.split()
        n = len(codecs)
        out = os.path.join(outdir, h)
        os.makedirs(out, exist_ok=True)
        detect = h == "fuzz_detect"
        texts = set()
        for key, v in (load(OWN[scheme]) if scheme in OWN else []):
            b = v.encode()
            if len(b) > 120 or PROSE.search(key):
                continue
            texts.add((codecs.index(key) if key in codecs else None, b))
        enc = subprocess.run([exe], env=dict(os.environ, IDS_FUZZ_ENCODE="1"),
                             input="\n".join(allhex) + "\n",
                             capture_output=True, text=True, check=True)
        for line in enc.stdout.splitlines():
            k, _, t = line.partition(" ")
            if int(k) == n + 1:
                if not detect:
                    write(out, n + 1, bytes.fromhex(t))
            else:
                texts.add((int(k), t.encode()))
        for k, b in texts:
            if detect:
                write(out, None, b)
            elif k is not None:
                write(out, k, b)
            else:
                for sel in range(n + 1):     # every codec, and detection
                    write(out, sel, b)
        print(h, len(os.listdir(out)), "seeds")


if __name__ == "__main__":
    main()
