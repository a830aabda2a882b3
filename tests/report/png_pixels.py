#!/usr/bin/env python3
"""Counts the pixels of a PNG that are not (near) white, using only the standard library.

Usage: png_pixels.py FILE -> prints "<non-white pixels> <width> <height>".
Decodes 8-bit greyscale, RGB and RGBA images (what Chromium's screenshots are), undoing the
per-row filters of the PNG specification (section 9: None, Sub, Up, Average, Paeth).
"""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG file")
    pos, idat, width, height, depth, colour = 8, b"", 0, 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = {0: 1, 2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None:
        raise SystemExit(f"{path}: unsupported PNG (bit depth {depth}, colour type {colour})")
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, rows


def main():
    width, height, channels, rows = read_png(sys.argv[1])
    colour_channels = 1 if channels == 1 else 3
    dark = 0
    for line in rows:
        for x in range(0, len(line), channels):
            if any(line[x + c] < 240 for c in range(colour_channels)):
                dark += 1
    print(dark, width, height)


if __name__ == "__main__":
    main()
