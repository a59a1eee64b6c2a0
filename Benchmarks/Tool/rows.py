"""Prints N rows of CSV (RFC 4180, CRLF) with a header, as burrow export prints them."""
import sys

rows = int(sys.argv[1])
out = sys.stdout
out.write("id,name,email,score,age,born\r\n")
names = ["Ana", "Ben", "Chloé", "Dmitri", "Eun-ji", "O'Brien", "Zoë, Jr.", "Li \"Lee\""]
for i in range(rows):
    name = names[i % len(names)]
    if "," in name or '"' in name:
        name = '"' + name.replace('"', '""') + '"'
    email = "" if i % 5 == 0 else f"person{i}@example.com"
    score = f"{(i % 1000) / 8:.3f}".rstrip("0")
    score = score + "0" if score.endswith(".") else score
    born = f"{1970 + i % 50:04d}-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{(i * 7) % 60:02d}Z"
    out.write(f"{i},{name},{email},{score},{i % 90},{born}\r\n")
