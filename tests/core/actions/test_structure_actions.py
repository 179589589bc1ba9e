"""Structure actions through the protocol: every action in seven languages, targets, fields.

Each language scenario is one reply that runs every structure action on a small file, in
order, so each edit is planned on top of the previous one; the closing fs.readStructure
names the same file and is deferred until the writes are applied. Every result JSON, the
lines each summary names and the files on disk afterwards are checked exactly. The
engine's own behaviour is tested in tests/core/structure/.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from support.actions import b64

Step = tuple[str, str, dict[str, object], dict[str, Any]]


@dataclass(frozen=True)
class Scenario:
    files: dict[str, str]
    steps: list[Step]
    final: dict[str, str] = field(default_factory=dict)


def phrase(pair: list[int]) -> str:
    return f"line {pair[0]}" if pair[0] == pair[1] else f"lines {pair[0]}-{pair[1]}"


def named_lines(result: dict[str, Any]) -> list[str]:
    """What a summary must say about the lines of ``result``."""
    wanted = []
    for key, value in result.items():
        if key == "matches":
            wanted += [phrase(m["line_range_inclusive"]) for m in value]
        elif key in ("inserted_at_line", "target_now_at_line"):
            wanted.append(f"line {value}")
        elif key == "total_replacements":
            wanted.append(f"{value} replacement")
        else:
            wanted.append(phrase(value))
    return wanted


def run_scenario(
    scenario: Scenario, workspace: Path, run_reply: Any, cmd: Any, reply: Any, snapshot: Any
) -> None:
    for rel, text in scenario.files.items():
        (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
        (workspace / rel).write_bytes(text.encode("utf-8"))
    untouched = {k: v for k, v in snapshot(workspace).items() if k not in scenario.final}
    blocks = [cmd(cmd_id, action, **fields) for cmd_id, action, fields, _ in scenario.steps]
    results = run_reply(reply(*blocks), True)
    assert [r.id for r in results] == [step[0] for step in scenario.steps]
    for result, (_, _, _, expected) in zip(results, scenario.steps, strict=True):
        assert result.ok, result.summary
        payload = result.json()
        # The JSON line, then what landed as numbered lines (a read shows no landed lines).
        head, _, rest = (result.details or "").partition("\n")
        assert json.loads(head) == payload
        landed = [line for line in rest.split("\n") if line]
        assert landed == result.landed
        if not result.summary.startswith("Read "):
            assert landed[0].startswith("# landed in "), result.id
        assert all(line.startswith(("# ", *map(str, range(10)))) for line in landed)
        assert payload == {**expected, "warnings": []}, result.id
        for words in named_lines(expected):
            assert words in result.summary, (words, result.summary)
    final = {rel: text.encode("utf-8") for rel, text in scenario.final.items()}
    assert snapshot(workspace) == {**untouched, **final}


def levels(*lines: str) -> str:
    return b64("\n".join(lines))


PYTHON = Scenario(
    files={
        "shop.py": (
            "import os\n\n\nclass Shop:\n    def add(self, entry):\n"
            "        self.items.append(entry)\n"
            "        return entry\n\n    @property\n    def total(self):\n"
            "        return sum(self.items)\n\n\ndef main():\n    return Shop()\n"
        )
    },
    steps=[
        (
            "p1",
            "fs.replaceTextInStructure",
            {
                "path": "shop.py",
                "target_b64": levels("class Shop:", "def total(self):"),
                "old_text": "sum",
                "new_text": "len",
            },
            {"affected_lines": [11, 11]},
        ),
        (
            "p2",
            "fs.replaceAllTextInStructure",
            {
                "path": "shop.py",
                "target_b64": levels("class Shop:", "def add("),
                "old_text": "entry",
                "new_text": "item",
                "expected_count": 3,
            },
            {"total_replacements": 3, "affected_lines": [5, 7]},
        ),
        (
            "p3",
            "fs.replaceStructure",
            {
                "path": "shop.py",
                "target": "def main():",
                "content_b64": b64("def main():\n    shop = Shop()\n    return shop.total\n"),
            },
            {"lines": [14, 16]},
        ),
        (
            "p4",
            "fs.insertAfterStructure",
            {
                "path": "shop.py",
                "target_b64": levels("class Shop:", "def total"),
                "content_b64": b64("def count(self):\n    return len(self.items)\n"),
            },
            {"inserted_at_line": 13},
        ),
        (
            "p5",
            "fs.insertBeforeStructure",
            {
                "path": "shop.py",
                "target": "class Shop:",
                "content_b64": b64("class Empty:\n    pass\n"),
            },
            {"inserted_at_line": 4, "target_now_at_line": 8},
        ),
        (
            "p6",
            "fs.deleteStructure",
            {"path": "shop.py", "target": "import os"},
            {"deleted_line_range_inclusive": [1, 1]},
        ),
        (
            "p7",
            "fs.moveStructure",
            {
                "path": "shop.py",
                "target_b64": levels("class Shop:", "def count"),
                "position": "before",
                "dest_target_b64": levels("class Shop:", "def add"),
            },
            {"source_original_line_range": [14, 15], "destination_final_line_range": [6, 7]},
        ),
        (
            "p8",
            "fs.moveStructure",
            {"path": "shop.py", "target": "def main", "position": "end", "dest_path": "app/run.py"},
            {"source_original_line_range": [18, 20], "destination_final_line_range": [1, 3]},
        ),
        (
            "p9",
            "fs.readStructure",
            {"path": "shop.py", "target_b64": levels("class Shop:", "def total")},
            {
                "matches": [
                    {
                        "text": "    @property\n    def total(self):\n"
                        "        return len(self.items)",
                        "line_range_inclusive": [13, 15],
                    }
                ]
            },
        ),
    ],
    final={
        "shop.py": (
            "class Empty:\n    pass\n\n\nclass Shop:\n    def count(self):\n"
            "        return len(self.items)\n\n    def add(self, item):\n"
            "        self.items.append(item)\n        return item\n\n    @property\n"
            "    def total(self):\n        return len(self.items)\n"
        ),
        "app/run.py": "def main():\n    shop = Shop()\n    return shop.total\n",
    },
)

SHOP = "export class Shop"
TYPESCRIPT = Scenario(
    files={
        "shop.ts": (
            'import { Item } from "./item";\n\nexport class Shop {\n  private items: Item[] = [];\n'
            "\n  add(entry: Item): Item {\n    this.items.push(entry);\n    return entry;\n  }\n\n"
            "  /** The sum of all prices. */\n  total(): number {\n"
            "    return this.items.reduce((s, i) => s + i.price, 0);\n  }\n}\n\n"
            "export function main(): number {\n  return new Shop().total();\n}\n"
        ),
        "main.ts": "console.log(1);\n",
    },
    steps=[
        (
            "t1",
            "fs.replaceTextInStructure",
            {
                "path": "shop.ts",
                "target_b64": levels(SHOP, "total()"),
                "old_text": "s + i.price",
                "new_text": "s + i.price * i.count",
            },
            {"affected_lines": [13, 13]},
        ),
        (
            "t2",
            "fs.replaceAllTextInStructure",
            {
                "path": "shop.ts",
                "target_b64": levels(SHOP, "add("),
                "old_text": "entry",
                "new_text": "item",
                "expected_count": 3,
            },
            {"total_replacements": 3, "affected_lines": [6, 8]},
        ),
        # The doc comment belongs to total(): replacing it replaces the comment too.
        (
            "t3",
            "fs.replaceStructure",
            {
                "path": "shop.ts",
                "target_b64": levels(SHOP, "total()"),
                "content_b64": b64("/** Total price. */\ntotal(): number {\n  return 0;\n}\n"),
            },
            {"lines": [11, 14]},
        ),
        (
            "t4",
            "fs.insertBeforeStructure",
            {
                "path": "shop.ts",
                "target_b64": levels(SHOP, "add("),
                "content_b64": b64("get size(): number {\n  return this.items.length;\n}"),
            },
            {"inserted_at_line": 6, "target_now_at_line": 10},
        ),
        (
            "t5",
            "fs.insertAfterStructure",
            {
                "path": "shop.ts",
                "target": "export function main",
                "content": "export const VERSION = 1;",
            },
            {"inserted_at_line": 25},
        ),
        (
            "t6",
            "fs.deleteStructure",
            {"path": "shop.ts", "target": "import { Item }"},
            {"deleted_line_range_inclusive": [1, 1]},
        ),
        (
            "t7",
            "fs.moveStructure",
            {
                "path": "shop.ts",
                "target_b64": levels(SHOP, "get size"),
                "position": "after",
                "dest_target_b64": levels(SHOP, "total()"),
            },
            {"source_original_line_range": [4, 6], "destination_final_line_range": [14, 16]},
        ),
        (
            "t8",
            "fs.moveStructure",
            {
                "path": "shop.ts",
                "target": "export function main",
                "position": "start",
                "dest_path": "main.ts",
            },
            {"source_original_line_range": [19, 21], "destination_final_line_range": [1, 3]},
        ),
        (
            "t9",
            "fs.readStructure",
            {"path": "shop.ts", "target_b64": levels(SHOP, "total()")},
            {
                "matches": [
                    {
                        "text": "  /** Total price. */\n  total(): number {\n    return 0;\n  }",
                        "line_range_inclusive": [9, 12],
                    }
                ]
            },
        ),
    ],
    final={
        "shop.ts": (
            "export class Shop {\n  private items: Item[] = [];\n\n  add(item: Item): Item {\n"
            "    this.items.push(item);\n    return item;\n  }\n\n  /** Total price. */\n"
            "  total(): number {\n    return 0;\n  }\n\n  get size(): number {\n"
            "    return this.items.length;\n  }\n}\n\nexport const VERSION = 1;\n"
        ),
        "main.ts": (
            "export function main(): number {\n  return new Shop().total();\n}\n\nconsole.log(1);\n"
        ),
    },
)

GO = Scenario(
    files={
        "shop.go": (
            'package shop\n\nimport "fmt"\n\n// Shop holds items.\ntype Shop struct {\n'
            "\titems []int\n}\n\n// Add appends an entry.\nfunc (s *Shop) Add(entry int) int {\n"
            "\ts.items = append(s.items, entry)\n\treturn entry\n}\n\n"
            "func (s *Shop) Total() int {\n\tsum := 0\n\tfor _, v := range s.items {\n"
            "\t\tsum += v\n\t}\n\treturn sum\n}\n\nfunc main() {\n\tfmt.Println(Shop{})\n}\n"
        ),
        "limits.go": "package shop\n",
    },
    steps=[
        (
            "g1",
            "fs.replaceTextInStructure",
            {
                "path": "shop.go",
                "target": "func (s *Shop) Total",
                "old_text": "sum += v",
                "new_text": "sum += v * 2",
            },
            {"affected_lines": [19, 19]},
        ),
        # The doc comment is part of Add, so its "entry" counts too.
        (
            "g2",
            "fs.replaceAllTextInStructure",
            {
                "path": "shop.go",
                "target": "func (s *Shop) Add(",
                "old_text": "entry",
                "new_text": "item",
                "expected_count": 4,
            },
            {"total_replacements": 4, "affected_lines": [10, 13]},
        ),
        # Written with spaces; the file indents with tabs.
        (
            "g3",
            "fs.replaceStructure",
            {
                "path": "shop.go",
                "target": "func main()",
                "content_b64": b64(
                    "func main() {\n    s := Shop{}\n    fmt.Println(s.Total())\n}\n"
                ),
            },
            {"lines": [24, 27]},
        ),
        (
            "g4",
            "fs.insertBeforeStructure",
            {
                "path": "shop.go",
                "target": "func (s *Shop) Total",
                "content_b64": b64(
                    "// Len counts the items.\nfunc (s *Shop) Len() int {\n\treturn len(s.items)\n}"
                ),
            },
            {"inserted_at_line": 16, "target_now_at_line": 21},
        ),
        (
            "g5",
            "fs.insertAfterStructure",
            {"path": "shop.go", "target": "type Shop struct", "content": "const Limit = 10"},
            {"inserted_at_line": 10},
        ),
        (
            "g6",
            "fs.deleteStructure",
            {"path": "shop.go", "target": "func (s *Shop) Add("},
            {"deleted_line_range_inclusive": [12, 16]},
        ),
        (
            "g7",
            "fs.moveStructure",
            {
                "path": "shop.go",
                "target": "func main()",
                "position": "before",
                "dest_target": "type Shop struct",
            },
            {"source_original_line_range": [25, 28], "destination_final_line_range": [5, 8]},
        ),
        (
            "g8",
            "fs.moveStructure",
            {
                "path": "shop.go",
                "target": "const Limit",
                "position": "end",
                "dest_path": "limits.go",
            },
            {"source_original_line_range": [15, 15], "destination_final_line_range": [2, 2]},
        ),
        (
            "g9",
            "fs.readStructure",
            {
                "path": "shop.go",
                "target_b64": levels("func (s *Shop) Total() int {", "for _, v := range"),
            },
            {
                "matches": [
                    {
                        "text": "\tfor _, v := range s.items {\n\t\tsum += v * 2\n\t}",
                        "line_range_inclusive": [22, 24],
                    }
                ]
            },
        ),
    ],
    final={
        "shop.go": (
            'package shop\n\nimport "fmt"\n\nfunc main() {\n\ts := Shop{}\n'
            "\tfmt.Println(s.Total())\n}\n\n// Shop holds items.\ntype Shop struct {\n"
            "\titems []int\n}\n\n// Len counts the items.\nfunc (s *Shop) Len() int {\n"
            "\treturn len(s.items)\n}\n\nfunc (s *Shop) Total() int {\n\tsum := 0\n"
            "\tfor _, v := range s.items {\n\t\tsum += v * 2\n\t}\n\treturn sum\n}\n"
        ),
        "limits.go": "package shop\nconst Limit = 10\n",  # one-liners: no blank line
    },
)

IMPL = "impl Shop {"
RUST = Scenario(
    files={
        "src/lib.rs": (
            "use std::fmt;\n\n#[derive(Debug)]\npub struct Shop {\n    items: Vec<u32>,\n}\n\n"
            "impl Shop {\n    /// Adds an entry.\n    pub fn add(&mut self, entry: u32) -> u32 {\n"
            "        self.items.push(entry);\n        entry\n    }\n\n"
            "    pub fn total(&self) -> u32 {\n        self.items.iter().sum()\n    }\n}\n"
        ),
        "src/util.rs": "pub fn helper() {}\n",
    },
    steps=[
        (
            "r1",
            "fs.replaceTextInStructure",
            {
                "path": "src/lib.rs",
                "target_b64": levels(IMPL, "pub fn total"),
                "old_text": "sum()",
                "new_text": "copied().sum()",
            },
            {"affected_lines": [16, 16]},
        ),
        (
            "r2",
            "fs.replaceAllTextInStructure",
            {
                "path": "src/lib.rs",
                "target_b64": levels(IMPL, "pub fn add"),
                "old_text": "entry",
                "new_text": "item",
                "expected_count": 4,
            },
            {"total_replacements": 4, "affected_lines": [9, 12]},
        ),
        # The attribute belongs to the struct: the new one replaces it.
        (
            "r3",
            "fs.replaceStructure",
            {
                "path": "src/lib.rs",
                "target": "pub struct Shop",
                "content_b64": b64(
                    "#[derive(Debug, Default)]\npub struct Shop {\n"
                    "    items: Vec<u32>,\n    open: bool,\n}"
                ),
            },
            {"lines": [3, 7]},
        ),
        (
            "r4",
            "fs.insertBeforeStructure",
            {
                "path": "src/lib.rs",
                "target_b64": levels(IMPL, "pub fn total"),
                "content_b64": b64("pub fn len(&self) -> usize {\n    self.items.len()\n}"),
            },
            {"inserted_at_line": 16, "target_now_at_line": 20},
        ),
        (
            "r5",
            "fs.insertAfterStructure",
            {
                "path": "src/lib.rs",
                "target": "impl Shop",
                "content_b64": b64("fn main() {\n    let _ = Shop::default();\n}"),
            },
            {"inserted_at_line": 25},
        ),
        (
            "r6",
            "fs.deleteStructure",
            {"path": "src/lib.rs", "target": "use std::fmt;"},
            {"deleted_line_range_inclusive": [1, 1]},
        ),
        (
            "r7",
            "fs.moveStructure",
            {
                "path": "src/lib.rs",
                "target_b64": levels(IMPL, "pub fn total"),
                "position": "start",
                "dest_target": "impl Shop",
            },
            {"source_original_line_range": [18, 20], "destination_final_line_range": [8, 10]},
        ),
        (
            "r8",
            "fs.moveStructure",
            {
                "path": "src/lib.rs",
                "target": "fn main()",
                "position": "start",
                "dest_path": "src/util.rs",
            },
            {"source_original_line_range": [23, 25], "destination_final_line_range": [1, 3]},
        ),
        (
            "r9",
            "fs.readStructure",
            {"path": "src/lib.rs", "target": "pub struct Shop"},
            {
                "matches": [
                    {
                        "text": "#[derive(Debug, Default)]\npub struct Shop {\n"
                        "    items: Vec<u32>,\n    open: bool,\n}",
                        "line_range_inclusive": [1, 5],
                    }
                ]
            },
        ),
    ],
    final={
        "src/lib.rs": (
            "#[derive(Debug, Default)]\npub struct Shop {\n    items: Vec<u32>,\n"
            "    open: bool,\n}\n\nimpl Shop {\n    pub fn total(&self) -> u32 {\n"
            "        self.items.iter().copied().sum()\n    }\n\n    /// Adds an item.\n"
            "    pub fn add(&mut self, item: u32) -> u32 {\n        self.items.push(item);\n"
            "        item\n    }\n\n    pub fn len(&self) -> usize {\n"
            "        self.items.len()\n    }\n}\n"
        ),
        "src/util.rs": "fn main() {\n    let _ = Shop::default();\n}\n\npub fn helper() {}\n",
    },
)

CLASS = "public class Shop"
JAVA = Scenario(
    files={
        "Shop.java": (
            "package shop;\n\nimport java.util.List;\n\npublic class Shop {\n"
            "    private final List<Integer> items = new ArrayList<>();\n\n    @Override\n"
            '    public String toString() {\n        return "Shop";\n    }\n\n'
            "    public int add(int entry) {\n        items.add(entry);\n        return entry;\n"
            "    }\n}\n"
        ),
        "Other.java": "class Other {\n    void run() {\n    }\n}\n",
    },
    steps=[
        (
            "j1",
            "fs.replaceTextInStructure",
            {
                "path": "Shop.java",
                "target_b64": levels(CLASS, "public String toString"),
                "old_text": '"Shop"',
                "new_text": '"Shop(" + items.size() + ")"',
            },
            {"affected_lines": [10, 10]},
        ),
        (
            "j2",
            "fs.replaceAllTextInStructure",
            {
                "path": "Shop.java",
                "target_b64": levels(CLASS, "public int add"),
                "old_text": "entry",
                "new_text": "item",
                "expected_count": 3,
            },
            {"total_replacements": 3, "affected_lines": [13, 15]},
        ),
        # The annotation is inside the range: the result has one @Override, not two.
        (
            "j3",
            "fs.replaceStructure",
            {
                "path": "Shop.java",
                "target_b64": levels(CLASS, "public String toString"),
                "content_b64": b64('@Override\npublic String toString() {\n    return "shop";\n}'),
            },
            {"lines": [8, 11]},
        ),
        (
            "j4",
            "fs.insertBeforeStructure",
            {
                "path": "Shop.java",
                "target_b64": levels(CLASS, "public int add"),
                "content_b64": b64("public int size() {\n    return items.size();\n}"),
            },
            {"inserted_at_line": 13, "target_now_at_line": 17},
        ),
        (
            "j5",
            "fs.insertAfterStructure",
            {
                "path": "Shop.java",
                "target_b64": levels(CLASS, "private final List"),
                "content": "private boolean open;",
            },
            {"inserted_at_line": 8},
        ),
        (
            "j6",
            "fs.deleteStructure",
            {"path": "Shop.java", "target": "import java.util.List;"},
            {"deleted_line_range_inclusive": [3, 3]},
        ),
        (
            "j7",
            "fs.moveStructure",
            {
                "path": "Shop.java",
                "target_b64": levels(CLASS, "public String toString"),
                "position": "end",
                "dest_target": CLASS,
            },
            {"source_original_line_range": [8, 11], "destination_final_line_range": [17, 20]},
        ),
        (
            "j8",
            "fs.moveStructure",
            {
                "path": "Shop.java",
                "target_b64": levels(CLASS, "public int size"),
                "position": "after",
                "dest_path": "Other.java",
                "dest_target_b64": levels("class Other", "void run()"),
            },
            {"source_original_line_range": [8, 10], "destination_final_line_range": [5, 7]},
        ),
        (
            "j9",
            "fs.readStructure",
            {"path": "Shop.java", "target_b64": levels(CLASS, "public String toString")},
            {
                "matches": [
                    {
                        "text": "    @Override\n    public String toString() {\n"
                        '        return "shop";\n    }',
                        "line_range_inclusive": [13, 16],
                    }
                ]
            },
        ),
    ],
    final={
        "Shop.java": (
            "package shop;\n\npublic class Shop {\n"
            "    private final List<Integer> items = new ArrayList<>();\n\n"
            "    private boolean open;\n\n    public int add(int item) {\n"
            "        items.add(item);\n        return item;\n    }\n\n    @Override\n"
            '    public String toString() {\n        return "shop";\n    }\n}\n'
        ),
        "Other.java": (
            "class Other {\n    void run() {\n    }\n\n    public int size() {\n"
            "        return items.size();\n    }\n}\n"
        ),
    },
)

RUBY = Scenario(
    files={
        "shop.rb": (
            'require "json"\n\nclass Shop\n  def add(entry)\n    @items << entry\n    entry\n'
            "  end\n\n  # Sum of all items.\n  def total\n    @items.sum\n  end\nend\n"
        )
    },
    steps=[
        (
            "b1",
            "fs.replaceTextInStructure",
            {
                "path": "shop.rb",
                "target_b64": levels("class Shop", "def total"),
                "old_text": "@items.sum",
                "new_text": "@items.sum.round",
            },
            {"affected_lines": [11, 11]},
        ),
        (
            "b2",
            "fs.replaceAllTextInStructure",
            {
                "path": "shop.rb",
                "target_b64": levels("class Shop", "def add"),
                "old_text": "entry",
                "new_text": "item",
                "expected_count": 3,
            },
            {"total_replacements": 3, "affected_lines": [4, 6]},
        ),
        (
            "b3",
            "fs.replaceStructure",
            {
                "path": "shop.rb",
                "target_b64": levels("class Shop", "def total"),
                "content_b64": b64("# Total, rounded.\ndef total\n  @items.sum.round(2)\nend"),
            },
            {"lines": [9, 12]},
        ),
        (
            "b4",
            "fs.insertBeforeStructure",
            {
                "path": "shop.rb",
                "target_b64": levels("class Shop", "def add"),
                "content_b64": b64("def initialize\n  @items = []\nend"),
            },
            {"inserted_at_line": 4, "target_now_at_line": 8},
        ),
        (
            "b5",
            "fs.insertAfterStructure",
            {"path": "shop.rb", "target": "class Shop", "content": "Shop.new.add(1)"},
            {"inserted_at_line": 19},
        ),
        (
            "b6",
            "fs.deleteStructure",
            {"path": "shop.rb", "target": 'require "json"'},
            {"deleted_line_range_inclusive": [1, 1]},
        ),
        (
            "b7",
            "fs.moveStructure",
            {
                "path": "shop.rb",
                "target_b64": levels("class Shop", "def total"),
                "position": "before",
                "dest_target_b64": levels("class Shop", "def add"),
            },
            {"source_original_line_range": [11, 14], "destination_final_line_range": [6, 9]},
        ),
        (
            "b8",
            "fs.moveStructure",
            {"path": "shop.rb", "target": "Shop.new", "position": "end", "dest_path": "bin/run.rb"},
            {"source_original_line_range": [17, 17], "destination_final_line_range": [1, 1]},
        ),
        (
            "b9",
            "fs.readStructure",
            {"path": "shop.rb", "target_b64": levels("class Shop", "def total")},
            {
                "matches": [
                    {
                        "text": "  # Total, rounded.\n  def total\n    @items.sum.round(2)\n  end",
                        "line_range_inclusive": [6, 9],
                    }
                ]
            },
        ),
    ],
    final={
        "shop.rb": (
            "class Shop\n  def initialize\n    @items = []\n  end\n\n  # Total, rounded.\n"
            "  def total\n    @items.sum.round(2)\n  end\n\n  def add(item)\n"
            "    @items << item\n    item\n  end\nend\n"
        ),
        "bin/run.rb": "Shop.new.add(1)\n",
    },
)

GUIDE = "# Guide"
MARKDOWN = Scenario(
    files={
        "docs/guide.md": (
            "# Guide\n\nIntro.\n\n## Install\n\nRun the installer.\n\n## Usage\n\nUse it.\n"
        ),
        "docs/faq.md": "# FAQ\n\nAsk.\n",
    },
    steps=[
        (
            "m1",
            "fs.replaceTextInStructure",
            {
                "path": "docs/guide.md",
                "target_b64": levels(GUIDE, "## Install"),
                "old_text": "installer",
                "new_text": "setup script",
            },
            {"affected_lines": [7, 7]},
        ),
        (
            "m2",
            "fs.replaceAllTextInStructure",
            {
                "path": "docs/guide.md",
                "target": GUIDE,
                "old_text": "Use it",
                "new_text": "Use the tool",
                "expected_count": 1,
            },
            {"total_replacements": 1, "affected_lines": [11, 11]},
        ),
        (
            "m3",
            "fs.replaceStructure",
            {
                "path": "docs/guide.md",
                "target_b64": levels(GUIDE, "## Usage"),
                "content_b64": b64("## Usage\n\nRun `tool --help`.\n"),
            },
            {"lines": [9, 11]},
        ),
        (
            "m4",
            "fs.insertBeforeStructure",
            {
                "path": "docs/guide.md",
                "target_b64": levels(GUIDE, "## Install"),
                "content_b64": b64("## Requirements\n\nPython 3.11."),
            },
            {"inserted_at_line": 5, "target_now_at_line": 9},
        ),
        (
            "m5",
            "fs.insertAfterStructure",
            {
                "path": "docs/guide.md",
                "target_b64": levels(GUIDE, "## Usage"),
                "content_b64": b64("## License\n\nMIT."),
            },
            {"inserted_at_line": 17},
        ),
        (
            "m6",
            "fs.deleteStructure",
            {"path": "docs/guide.md", "target_b64": levels(GUIDE, "## Requirements")},
            {"deleted_line_range_inclusive": [5, 7]},
        ),
        (
            "m7",
            "fs.moveStructure",
            {
                "path": "docs/guide.md",
                "target_b64": levels(GUIDE, "## Usage"),
                "position": "before",
                "dest_target_b64": levels(GUIDE, "## Install"),
            },
            {"source_original_line_range": [9, 11], "destination_final_line_range": [5, 7]},
        ),
        (
            "m8",
            "fs.moveStructure",
            {
                "path": "docs/guide.md",
                "target_b64": levels(GUIDE, "## License"),
                "position": "end",
                "dest_path": "docs/faq.md",
            },
            {"source_original_line_range": [13, 15], "destination_final_line_range": [5, 7]},
        ),
        (
            "m9",
            "fs.readStructure",
            {"path": "docs/guide.md", "target": GUIDE},
            {
                "matches": [
                    {
                        "text": "# Guide\n\nIntro.\n\n## Usage\n\nRun `tool --help`.\n\n"
                        "## Install\n\nRun the setup script.",
                        "line_range_inclusive": [1, 11],
                    }
                ]
            },
        ),
    ],
    final={
        "docs/guide.md": (
            "# Guide\n\nIntro.\n\n## Usage\n\nRun `tool --help`.\n\n## Install\n\n"
            "Run the setup script.\n"
        ),
        "docs/faq.md": "# FAQ\n\nAsk.\n\n## License\n\nMIT.\n",
    },
)


@pytest.mark.parametrize(
    "scenario",
    [PYTHON, TYPESCRIPT, GO, RUST, JAVA, RUBY, MARKDOWN],
    ids=["python", "typescript", "go", "rust", "java", "ruby", "markdown"],
)
def test_every_action_in_one_reply(
    scenario: Scenario, workspace: Path, run_reply: Any, cmd: Any, reply: Any, snapshot: Any
) -> None:
    run_scenario(scenario, workspace, run_reply, cmd, reply, snapshot)
