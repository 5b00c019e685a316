"""Realism: does the simulated customer talk like the real ones?

Two runs' customer messages side by side — REAL (conversations brought in, or any run) and SIM
(a simulated run) — in figures computed in code (``figures``: lengths, questions, asking for a
person or giving up, personal data volunteered, how alike the openings are), and a blind test in
which the judge is shown one message of each side for the same need and asked which one a real
customer wrote (``blind_test``). Pure statistics live in ``stats``; nothing here writes.
"""
