// The forecast of a constrained solve's proof (src/cli/forecast.ts), on a worker thread of its
// own, so that its probes never hold the solve's thread: Knuth's probes of solve's 64-bit search
// (src/search/proof-estimate.ts), PROOF_PROBES of them or as many as PROOF_BUDGET_MS allow (a
// probe at n = 64 takes up to 150 ms, at n = 30 a few). Where solve's portfolio would keep equal
// shares with its restarting search (its own estimate past OUT_OF_REACH, on one thread), a proof
// takes the restarting search's turns too (equalSharesNodes: 2.33 times the 64-bit search's
// nodes with the needed diagonals), and on threads the restarting search's threads' nodes beside
// the tasks' (proofNodes), and the answer says so. Built on its own
// (dist/cli-forecast.cjs); it answers once, with { nodes, probes }, and ends.
import { parentPort, workerData } from "node:worker_threads";
import { checkConstraints } from "../board/constraints.js";
import { OUT_OF_REACH, proofNodes } from "../engine/ts/complete-portfolio.js";
import { ProofEstimate } from "../search/proof-estimate.js";
import type { ProofThreadAnswer, ProofThreadInput } from "./forecast.js";

/** The most the probes take, in ms of this thread (the solve goes on beside it). */
const PROOF_BUDGET_MS = 3000;

const input = workerData as ProofThreadInput;
const constraints = checkConstraints(input.n, { fixed: input.fixed, blocked: input.blocked }, "solve");
const estimate = new ProofEstimate(constraints);
estimate.step(PROOF_BUDGET_MS);
// (the portfolio runs on one thread where the bounds pay; its own estimate, the same call, decides its shares)
const search = estimate.search;
const equalShares = input.threads < 2 && search.bounds && search.depth === 0 && search.estimate() > OUT_OF_REACH;
const nodes = proofNodes(estimate.nodes, input.threads, equalShares, search.neededLines);
parentPort!.postMessage({ nodes, probes: estimate.made } satisfies ProofThreadAnswer);
