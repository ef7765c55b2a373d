// Board files (src/board/formats.ts): the text board, JSON (0-based) and Essence'
// (1-based) forms round-trip; malformed files give one clear, coded line.
import { describe, expect, it } from "vitest";
import { BOARD_FORMATS, detectFormat, drawBoard, formatBoard, parseBoard, type BoardFile } from "../src/board/formats.js";
import { randomGivens, rng } from "./constrained.js";

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
