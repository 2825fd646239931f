"""The networks' record, as `tools/generation.py` keeps it: `nets/README.md` opens with one
table, a row a generation, then a short entry for each; every generation's full record
(commands, data, training losses, each match) is `nets/history/gen<N>.md`.

The table's columns: generation (linked to its record), started from, data, opponent,
result at the clock, shipped, network id. A row is found by its first cell's link.
"""

from pathlib import Path

NETS = Path(__file__).resolve().parent.parent / "nets"
README = NETS / "README.md"
HISTORY = NETS / "history"
SEPARATOR = "|---|---|---|---|---|---|---|"
SHIPPED_NOW = "yes (the default now)"


def record_path(gen):
    return HISTORY / f"gen{gen}.md"


def write_record(gen, text):
    """Generation `gen`'s full record; `text` opens with its `## ` heading, which becomes
    the file's title."""
    HISTORY.mkdir(exist_ok=True)
    record_path(gen).write_text(text.replace("## ", "# ", 1).rstrip("\n") + "\n")


def append_record(gen, paragraph):
    """A paragraph added at the end of generation `gen`'s full record."""
    path = record_path(gen)
    path.write_text(path.read_text().rstrip("\n") + "\n\n" + paragraph.rstrip("\n") + "\n")


def row_cells(gen, started, data, opponent, result, shipped, net_id):
    return [f"[{gen}](history/gen{gen}.md)", started, data, opponent, result, shipped, f"`{net_id}`"]


def _is_row(line, gen):
    return line.startswith(f"| [{gen}](history/gen{gen}.md) |")


def _row(cells):
    return "| " + " | ".join(cells) + " |"


def put_row(text, gen, cells):
    """The README text with generation `gen`'s row replaced, or added as the newest."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _is_row(line, gen):
            lines[i] = _row(cells)
            return "\n".join(lines)
    at = lines.index(SEPARATOR) + 1
    return "\n".join(lines[:at] + [_row(cells)] + lines[at:])


def update_row(text, gen, **changes):
    """Changes some cells of generation `gen`'s row: `result=`, `shipped=`."""
    columns = {"result": 4, "shipped": 5}
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _is_row(line, gen):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            for name, value in changes.items():
                cells[columns[name]] = value
            lines[i] = _row(cells)
    return "\n".join(lines)


def put_entry(text, gen, entry):
    """The README text with generation `gen`'s short entry replaced, or added as the newest
    (the first `## ` section after the table)."""
    marker = f"## Generation {gen} "
    entry = entry.rstrip("\n") + "\n"
    if marker in text:
        start = text.find(marker)
        end = text.find("\n## ", start + 1)
        return text[:start] + entry + (text[end:] if end >= 0 else "")
    first = text.find("\n## ", text.find("## At a glance") + 1)
    return text[: first + 1] + entry + "\n" + text[first + 1:]


def _shipped(section, net_id, old_gen, how):
    """A generation's entry or record with its heading and first line saying it ships."""
    section = section.replace("(tried, not shipped)", f"(`default.nnue`, hash `{net_id}`)", 1)
    return section.replace(f"Generation {old_gen} stays the default.", how, 1)


def ship(text, gen, net_id, old_gen, how):
    """The README text once generation `gen` ships: its heading and first line say so, its
    row says shipped, and the generation it replaces stands "until" it. The full record
    (`nets/history/gen<N>.md`) gets the same heading and first line."""
    start = text.find(f"## Generation {gen} ")
    end = text.find("\n## ", start + 1)
    text = text[:start] + _shipped(text[start:end], net_id, old_gen, how) + text[end:]
    record = record_path(gen)
    if record.exists():
        record.write_text(_shipped(record.read_text(), net_id, old_gen, how))
    text = update_row(text, old_gen, shipped=f"yes (until gen{gen})")
    return update_row(text, gen, shipped=SHIPPED_NOW)


def read():
    return README.read_text()


def write(text):
    README.write_text(text)
