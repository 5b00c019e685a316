"""Small real PDFs for the knowledge base's tests: pages of Latin text in Helvetica, written
object by object with a correct cross-reference table, so a PDF reader parses them as it would a
help centre's export. A page given no lines has no text at all, like a scan."""

from __future__ import annotations


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(pages: list[list[str]], title: str | None = None) -> bytes:
    """A PDF whose page N shows ``pages[N]``, one string a line."""
    objects: list[bytes] = []
    page_ids = [4 + 2 * i for i in range(len(pages))]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for pid, lines in zip(page_ids, pages, strict=True):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {pid + 1} 0 R >>".encode()
        )
        body = "".join(f"({_escape(line)}) Tj T* " for line in lines)
        stream = f"BT /F1 12 Tf 14 TL 72 720 Td {body}ET".encode("latin-1") if lines else b""
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    info = len(objects) + 1
    objects.append(f"<< /Title ({_escape(title)}) >>".encode("latin-1") if title else b"<< >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        info,
        xref,
    )
    return bytes(out)
