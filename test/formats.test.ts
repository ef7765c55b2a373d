// Board files (src/board/formats.ts): the text board, JSON (0-based) and Essence'
// (1-based) forms round-trip; malformed files give one clear, coded line.
import { describe, expect, it } from "vitest";
import { BOARD_FORMATS, detectFormat, drawBoard, formatBoard, parseBoard, type BoardFile } from "../src/board/formats.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bruteForce, honours, randomGivens, rng } from "./constrained.js";
import { runCli } from "./cli-run.js";

const sorted = (list: readonly (readonly [number, number])[]) =>
  [...new Map(list.map(([r, c]) => [`${r},${c}`, [r, c]])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

describe("board files", () => {
  it("read the forms the issue gives", () => {
    expect(parseBoard(".Q..\n...#\n#...\n....\n")).toEqual({ n: 4, fixed: [[0, 1]], blocked: [[1, 3], [2, 0]] });
    expect(parseBoard('{ "n": 5, "blocks": [[0, 0], [4, 3]] }')).toEqual({ n: 5, fixed: [], blocked: [[0, 0], [4, 3]] });
    const essence = "language ESSENCE' 1.0\n$ a comment\nletting n = 5\nletting blocks = [[1,1], [5, 4]]\n";
    expect(parseBoard(essence)).toEqual({ n: 5, fixed: [], blocked: [[0, 0], [4, 3]] });
    expect(parseBoard("letting n be 3 letting blocks be [ ]")).toEqual({ n: 3, fixed: [], blocked: [] });
    expect(detectFormat(essence)).toBe("essence");
    expect(detectFormat(" {}")).toBe("json");
    expect(detectFormat("..\n..")).toBe("text");
  });

  it("every format round-trips 200 random boards (squares sorted, duplicates dropped)", () => {
    const random = rng(80);
    for (let i = 0; i < 200; i++) {
      const n = 1 + (i % 12);
      const givens = randomGivens(n, random, 2, 0.2);
      // The text form cannot hold a given queen on a blocked square (one character per square).
      const fixed = givens.fixed.filter(([r, c]) => !givens.blocked.some(([br, bc]) => br === r && bc === c));
      const board: BoardFile = { n, fixed, blocked: givens.blocked };
      const want = { n, fixed: sorted(fixed), blocked: sorted(givens.blocked) };
      for (const format of BOARD_FORMATS) {
        const text = formatBoard(board, format);
        expect(detectFormat(text)).toBe(format);
        const back = parseBoard(text, format);
        expect({ n: back.n, fixed: sorted(back.fixed), blocked: sorted(back.blocked) }).toEqual(want);
        expect(formatBoard(back, format)).toBe(text);
      }
    }
  });

  it("malformed files give one line naming the file, the place and what was expected (coded)", () => {
    const cases: [string, RegExp][] = [
      ["", /b\.txt \(text board\): the file is empty/],
      ["..\n.x", /line 2, column 2: expected '\.', 'Q' or '#', got "x"/],
      ["...\n..\n...", /line 2: expected 3 squares \(the board has 3 rows\), got 2/],
      ['{ "n": 4, "blocks": [[0, 4]] }', /\(JSON\): blocked\[0\] col must be an integer from 0 to 3/],
      ['{ "n": 0 }', /\(JSON\): n must be an integer from 1 to/],
      ['{ "n": 4, "block": [] }', /unknown key "block"/],
      ['{ "n": 4, ', /\(JSON\): not valid JSON/],
      ['{ "n": 4, "blocks": [[1]] }', /"blocks"\[0\] must be a \[row, col\] pair/],
      ["letting n = 4\nletting blocks = [[0, 1]]", /blocks holds \[0, 1\], outside the board \(rows and columns 1 to 4, 1-based\)/],
      ["letting n = 4\nletting blocks = [[1, 2], [3]]", /cannot read/],
      ["letting blocks = []", /no 'letting n = N'/],
      ["letting n = four", /n must be an integer, got "four"/],
      ["letting m = 4", /unknown 'letting m'/],
    ];
    for (const [text, message] of cases) {
      let error: (Error & { code?: string }) | undefined;
      try {
        parseBoard(text, undefined, "b.txt");
      } catch (e) {
        error = e as Error & { code?: string };
      }
      expect(error, text).toBeDefined();
      expect(error!.message).toMatch(message);
      expect(error!.message).not.toContain("\n");
      expect(error!.code).toBe("NQ_INVALID_ARGUMENT");
    }
  });

  it("draws given queens Q, placed queens q, blocked squares #", () => {
    expect(drawBoard(4, { fixed: [[0, 1]], blocked: [[1, 0]] }, [1, 3, 0, 2])).toBe(". Q . .\n# . . q\nq . . .\n. . q .");
    expect(drawBoard(2, { blocked: [[0, 0]] }, null)).toBe("# .\n. .");
  });
});

describe("the CLI with given queens, blocked squares and board files", () => {
  const dir = mkdtempSync(join(tmpdir(), "nq-boards-"));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("solve, count and all read each format and draw given Q, placed q, blocked #", async () => {
    const text = file("b.txt", ".Q......\n........\n...#....\n........\n........\n........\n........\n........\n");
    const solved = await runCli(["solve", "--board", text, "--engine", "ts"]);
    expect(solved.code).toBe(0);
    const grid = solved.stdout.split("\n").slice(0, 8).map((line) => line.split(" "));
    expect(grid[0][1]).toBe("Q");
    expect(grid[2][3]).toBe("#");
    const columns = grid.map((row) => row.findIndex((s) => s === "Q" || s === "q"));
    expect(honours(columns, 8, { fixed: [[0, 1]], blocked: [[2, 3]] })).toBe(true);
    const givens = { fixed: [[0, 1]] as [number, number][], blocked: [[2, 3]] as [number, number][] };
    const expected = bruteForce(8, givens).length;
    const counted = await runCli(["count", "--board", text, "--json"]);
    expect(JSON.parse(counted.stdout)).toMatchObject({ total: String(expected), unique: null });
    const essence = file("b.essence", "letting n = 8\nletting blocks = [[3, 4]]\n");
    const json = file("b.json", '{ "n": 8, "blocks": [[2, 3]] }');
    const flags = await runCli(["count", "8", "--blocked", "2:3", "--json"]);
    const withoutTime = (out: string) => ({ ...JSON.parse(out), ms: undefined });
    expect(withoutTime((await runCli(["count", "--board", json, "--json"])).stdout)).toEqual(withoutTime(flags.stdout));
    expect(JSON.parse((await runCli(["count", "--board", essence, "--json"])).stdout).total).toBe(String(bruteForce(8, { fixed: [], blocked: [[2, 3]] }).length));
    const all = await runCli(["all", "--board", text, "--json"]);
    const listed = JSON.parse(all.stdout);
    expect(listed.total).toBe(expected);
    for (const board of listed.solutions) expect(honours(board, 8, givens)).toBe(true);
  });

  it("names the attacking pair; malformed input is one line and exit 2", async () => {
    const pair = await runCli(["solve", "8", "--fixed", "0:0,5:5"]);
    expect(pair.code).toBe(0);
    expect(pair.stdout).toContain("no completion: the given queens at (0, 0) and (5, 5) attack each other");
    const cases: [string[], RegExp][] = [
      [["solve", "--board", file("bad.json", '{ "n": 6, "blocks": [[0, 9]] }')], /bad\.json \(JSON\): blocked\[0\] col must be an integer from 0 to 5/],
      [["count", "--board", file("bad.txt", "..\n.x\n")], /bad\.txt \(text board\) line 2, column 2/],
      [["all", "--board", file("bad.essence", "letting n = 3\nletting blocks = [[0, 0]]")], /outside the board \(rows and columns 1 to 3, 1-based\)/],
      [["solve", "--board", join(dir, "missing.txt")], /cannot read the file \(no such file\)/],
      [["solve", "8", "--fixed", "0:x"], /--fixed must be row:col pairs/],
      [["solve", "8", "--blocked", "0:8"], /--blocked 0:8 is outside the 8 x 8 board: rows and columns run from 0 to 7/],
      [["solve"], /N is missing/],
        [["count", "1001", "--blocked", "0:0"], /from 1 to 1000, got 1001/],
      [["count", "8", "--blocked", "0:0", "--queue", "redis://127.0.0.1:1", "--parts", "5000"], /--parts must be an integer from 1 to 4096, got 5000/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
