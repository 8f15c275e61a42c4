"""Refresh the catalogs: extract the UI strings and the rules' messages, merge, compile.

    python kiosk/locale/update.py

Needs GNU gettext (xgettext, msgmerge, msgfmt; Debian package `gettext`). UI strings are found
by xgettext (markers `tr(...)`, `N_(...)`, `tr.plural(...)`); the rulings come from
`kiosk.rules.messages.MESSAGES`, each with its key as msgctxt. Translators edit the `.po` files;
this script keeps them in step with the code and writes the `.mo` files the kiosk reads.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from kiosk.i18n import DOMAIN, LANGUAGES  # noqa: E402
from kiosk.rules.messages import MESSAGES  # noqa: E402


def po_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def messages_pot() -> str:
    lines = []
    for key, template in MESSAGES.items():
        lines += [
            "#: kiosk/rules/messages.py",
            f"msgctxt {po_string(key)}",
            f"msgid {po_string(template)}",
            'msgstr ""',
            "",
        ]
    return "\n".join(lines)


def main() -> int:
    sources = sorted(
        str(p.relative_to(ROOT))
        for p in [
            ROOT / "kiosk/table.py",
            ROOT / "kiosk/i18n.py",
            *(ROOT / "kiosk/ui").rglob("*.py"),
        ]
    )
    pot = HERE / f"{DOMAIN}.pot"
    subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--from-code=UTF-8",
            "--no-wrap",
            "--sort-by-file",
            "--keyword=tr",
            "--keyword=N_",
            "--keyword=plural:1,2",
            "--add-comments=TRANSLATORS",
            "--package-name=azar-kiosk",
            "-o",
            str(pot),
            *sources,
        ],
        cwd=ROOT,
        check=True,
    )
    with pot.open("a", encoding="utf-8") as file:
        file.write("\n" + messages_pot())
    subprocess.run(["msguniq", "--no-wrap", "-o", str(pot), str(pot)], check=True)
    for lang in LANGUAGES:
        folder = HERE / lang / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        po = folder / f"{DOMAIN}.po"
        if po.exists():
            subprocess.run(
                [
                    "msgmerge",
                    "--quiet",
                    "--no-wrap",
                    "--update",
                    "--backup=none",
                    "--no-fuzzy-matching",
                    str(po),
                    str(pot),
                ],
                check=True,
            )
        else:
            subprocess.run(
                [
                    "msginit",
                    "--no-translator",
                    "--no-wrap",
                    f"--locale={lang}.UTF-8",
                    "-i",
                    str(pot),
                    "-o",
                    str(po),
                ],
                check=True,
            )
        subprocess.run(
            ["msgfmt", "--check", "-o", str(folder / f"{DOMAIN}.mo"), str(po)], check=True
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
