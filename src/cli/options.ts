// Parsing of the CLI's arguments and options shared by the commands, and its interrupt signal.
import { Option } from "commander";
import { ENGINE_NAMES } from "../engine/select.js";
import { UsageError } from "./errors.js";

/** A number argument as the user typed it; the API then checks its range and names it. */
export function number(name: string): (text: string) => number {
  return (text: string) => {
    const value = Number(text);
    if (text.trim() === "" || (Number.isNaN(value) && text.trim() !== "NaN")) {
      throw new UsageError(`${name} must be a number, got ${JSON.stringify(text)}`);
    }
    return value;
  };
}

/** A --seed value: a number, 'random', or undefined (the API's default). */
export function seedOption(text: string | undefined): number | "random" | undefined {
  return text === undefined || text === "random" ? text : number("--seed")(text);
}

export const engineOption = () => new Option("--engine <name>", "engine").choices(ENGINE_NAMES).default("wasm");

/** An AbortSignal that fires on Ctrl-C (SIGINT) or SIGTERM. */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return controller.signal;
}
