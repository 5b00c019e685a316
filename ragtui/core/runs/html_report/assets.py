"""The report's one stylesheet and one script (``script.py``), inline, and the
Content-Security-Policy that allows exactly them: no network, no other script, no inline event
handler, images only as data."""

from __future__ import annotations

import base64
import hashlib

from .script import SCRIPT

STYLE = """
:root{--fg:#202124;--muted:#5f6368;--bg:#fff;--card:#f8f9fa;--line:#dadce0;--pass:#1e8e3e;--fail:#d93025;--warn:#b06000}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:16px}
h1{font-size:1.4em;margin:.2em 0 .1em;overflow-wrap:anywhere}h2{font-size:1.15em;margin:1.4em 0 .5em;border-bottom:1px solid var(--line);padding-bottom:.2em}
.sub{color:var(--muted);overflow-wrap:anywhere}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:10px;margin:12px 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card b{display:block;font-size:1.35em}.card span{color:var(--muted);font-size:.9em}
.gate{border-radius:8px;padding:8px 12px;margin:8px 0;border:1px solid var(--line)}
.gate.ok{background:#e6f4ea}.gate.bad{background:#fce8e6}.gate.warn{background:#fef7e0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:14px}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px;overflow-x:auto}
figcaption{font-weight:600;margin-bottom:4px}
svg{max-width:100%;height:auto;display:block}figure.tall{max-height:560px;overflow:auto}
svg text{font:11px system-ui,sans-serif;fill:var(--fg)}svg .c{text-anchor:middle}svg .r{text-anchor:end}svg .l{text-anchor:start}svg .w{fill:#fff;font-weight:600}
svg .thr{stroke:var(--fg);stroke-dasharray:4 3}svg .axis{stroke:var(--muted)}svg .grid{stroke:var(--line)}
svg .ci{stroke:var(--muted);stroke-width:2}svg .ln{stroke:#1a73e8;stroke-width:1.5}svg .pt{fill:#1a73e8}svg .cur{fill:#e37400}
svg .reg{stroke:var(--fg);stroke-width:1.5}
svg .sw{stroke:var(--line)}.legend{margin-top:6px}.legend p{margin:2px 0;font-size:.85em}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.92em}th,td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}
th{background:var(--card)}td.n{text-align:right;white-space:nowrap}
.filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;position:sticky;top:0;background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);z-index:1}
.filters label{display:flex;gap:6px;align-items:center}select,input[type=search]{font:inherit;max-width:46vw}
#shown{color:var(--muted)}
details.dlg{scroll-margin-top:72px;border:1px solid var(--line);border-radius:8px;margin:8px 0;background:var(--bg)}
details.dlg>summary{cursor:pointer;padding:8px 10px;list-style-position:inside;overflow-wrap:anywhere}
details.dlg[open]>summary{border-bottom:1px solid var(--line);background:var(--card)}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:.85em;color:#fff;margin-right:6px}
.badge.passed{background:var(--pass)}.badge.failure{background:var(--fail)}.badge.error{background:var(--warn)}.badge.skipped{background:var(--muted)}
.turns{padding:6px 10px}
.msg{margin:8px 0;padding:6px 10px;border-radius:8px;max-width:92%}
.msg.user{background:#e8f0fe}.msg.bot{background:var(--card);margin-left:auto}.msg.partial{background:#fef7e0}
.who{font-size:.8em;color:var(--muted)}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:2px 0}
ul.v{margin:4px 0 0;padding-left:18px;font-size:.9em}ul.v li{overflow-wrap:anywhere}
.dv{padding:4px 10px 10px}.muted{color:var(--muted)}
details.ps{margin:4px 0 0;font-size:.9em}details.ps>summary{cursor:pointer;color:var(--muted)}
details.ps ol{margin:4px 0;padding-left:20px}details.ps li{overflow-wrap:anywhere;margin:4px 0}.lb{font-size:.9em;margin-top:4px}
table.facts th{width:30%}td.marks{white-space:nowrap;font-size:1.1em}td.marks a{color:inherit;text-decoration:none}
@media (max-width:600px){main{padding:10px}body{font-size:14px}.msg{max-width:100%}.card b{font-size:1.15em}}
"""


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def content_security_policy() -> str:
    """Nothing may load from anywhere; only this stylesheet and this script run (by their hash),
    so a reply that somehow held markup could neither run a script nor an ``onerror``."""
    return (
        f"default-src 'none'; style-src '{_sha256(STYLE)}'; script-src '{_sha256(SCRIPT)}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
