'use strict';
// The differential oracle for the JavaScript checker: node's own tokenizer (the acorn
// inside node, under --expose-internals) and V8's parser and evaluator. One process
// serves a whole test run: one JSON array per input line, one JSON object per output
// line. [source, spaced]: the tokens of `source`, and how V8 judges `source` and
// `spaced` (the checker's tokens joined by spaces, or null), each evaluated as the
// worker does, in a fresh context holding only a frozen Math.
const acorn = require('internal/deps/acorn/acorn/dist/acorn');
const readline = require('readline');
const vm = require('vm');

const SETUP = new vm.Script(
  '(function (g, names, freeze) {' +
    ' for (let k = 0; k < names.length; k++) if (names[k] !== "Math") delete g[names[k]];' +
    ' freeze(g.Math); })(globalThis, Object.getOwnPropertyNames(globalThis), Object.freeze);',
);

function tokensOf(source) {
  try {
    const out = [];
    for (const token of acorn.tokenizer(source, { ecmaVersion: 'latest', sourceType: 'script' })) {
      out.push([token.start, source.slice(token.start, token.end)]);
    }
    return out;
  } catch (error) {
    return null;
  }
}

function outcome(source) {
  let script;
  try {
    script = new vm.Script(source);
  } catch (error) {
    return 'syntax';
  }
  const context = vm.createContext(Object.create(null), {
    codeGeneration: { strings: false, wasm: false },
  });
  SETUP.runInContext(context);
  try {
    // Generous: a loaded CI machine timed a one-line formula out at 200 ms, and a timeout
    // (a plain Error) then read as a different outcome; no accepted formula can loop.
    const value = script.runInContext(context, { timeout: 10000 });
    if (typeof value === 'number') return 'number:' + (Object.is(value, -0) ? '-0' : String(value));
    return 'other:' + (value === null ? 'null' : typeof value);
  } catch (error) {
    const name = error && error.constructor ? error.constructor.name : typeof error;
    return 'throw:' + name;
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const [source, spaced] = JSON.parse(line);
  const answer = { tokens: tokensOf(source), outcome: outcome(source) };
  if (spaced !== null) answer.spaced = outcome(spaced);
  process.stdout.write(JSON.stringify(answer) + '\n');
});
