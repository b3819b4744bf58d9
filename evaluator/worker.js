'use strict';
/*
 * Formula Darts evaluator worker for JavaScript Sets: one warm node process, many formulas.
 *
 * The same line protocol as worker.php (evaluator/sandbox/protocol.py): requests on
 * stdin, {"m": "e"|"r", "c": "<code>", "i": "<nonce>"}, the first line of a batch
 * adding "n"; answers on stderr, one line per request, in order, echoing the nonce:
 *   {"ok":true,"t":"number","v":123,"i":"..."}   (v: the double, -0 written -0.0)
 *   {"ok":false,"e":"syntax"|"php"|"not_finite"|"sandbox","c":"<Error class>","m":"..."}
 *   "bye":true when this worker retires after that answer.
 *
 * Mode "e" runs the formula as a classic script (sloppy mode, what `node -p` does) in
 * a vm context whose only global is that context's own frozen Math, with code
 * generation from strings off. A formula that can only compute (`PURE`: digits,
 * operators, parentheses, commas and calls of the vetted Math functions, nothing
 * else, which is all the checker lets through) runs in one context kept for such
 * formulas: written so, it names no binding but frozen Math's functions, so it cannot
 * assign, define, delete or reach a prototype, and leaves that context as it found
 * it. Any other formula gets a fresh context made for it alone, and nothing it does
 * there survives it; the next one is made right after its answer, before the next
 * read, so its cost is not in anyone's wait. (A fresh context is ~1.2 ms of node's
 * time, 98 % of a formula's cost: the kept one is what lets node keep PHP's pace.)
 * Mode "r" (tests only) runs statements in this realm with `require`, to prove the OS
 * sandbox holds on its own; this realm cannot be cleaned, so the worker retires right
 * after a raw request.
 *
 * As in worker.php: a whole batch is read before any of it runs (stdin is empty
 * whenever evaluated code runs), requests and nonces are locals here (strict mode:
 * no `caller`/`arguments` reach them), and answers are built from captured
 * functions and string concatenation only (no JSON.stringify of an object, whose
 * prototype's toJSON raw code could replace).
 */
const fs = require('fs');
const vm = require('vm');

const readSync = fs.readSync;
const writeSync = fs.writeSync;
const stringify = JSON.stringify;
const parse = JSON.parse;
const objectIs = Object.is;
const isFinite_ = Number.isFinite;
const toText = String;
const exit = process.exit;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const MAX_BATCH = 256;
const PURE = new RegExp(
  '^(?:[0-9 ()+\\-*/%&|^<>,]|Math\\.(?:pow|sqrt|cbrt|abs|floor|ceil|round|trunc|sign|hypot|max|min)\\b)*$',
);
/* Only these characters and names: no letter but in a vetted `Math.name`, no `.` but
 * its own, no `=`, quote, bracket, brace, backslash, `$`, `_`, `!`, `?`, `:`, `;`,
 * `~` or line break. What they can still spell (a regular expression or comment of
 * these characters, a comparison, the comma operator) builds values, never changes
 * one that outlives the formula. The names must stay pure functions of numbers:
 * `Math.random` is not one (its generator's state is shared). */
const SETUP = new vm.Script(
  '(function (g, names, freeze) {' +
    ' for (let k = 0; k < names.length; k++) if (names[k] !== "Math") delete g[names[k]];' +
    ' freeze(g.Math); })(globalThis, Object.getOwnPropertyNames(globalThis), Object.freeze);',
);

function freshContext() {
  const context = vm.createContext(Object.create(null), {
    codeGeneration: { strings: false, wasm: false },
  });
  SETUP.runInContext(context);
  return context;
}

function errorClass(error) {
  try {
    const name = error && error.constructor && error.constructor.name;
    return typeof name === 'string' ? name : 'Error';
  } catch (_) {
    return 'Error';
  }
}

function errorMessage(error) {
  try {
    return toText(error && error.message !== undefined ? error.message : error);
  } catch (_) {
    return 'an unprintable error';
  }
}

function failure(code, cls, message) {
  return (
    '{"ok":false,"e":"' + code + '","c":' + (cls === null ? 'null' : stringify(toText(cls))) +
    ',"m":' + stringify(toText(message))
  );
}

function answer(value) {
  if (typeof value !== 'number') {
    let kind = 'an object';
    try {
      kind = value === null ? 'null' : typeof value;
    } catch (_) {}
    return failure('php', null, 'the result is not a number but ' + kind);
  }
  if (!isFinite_(value)) {
    return failure('not_finite', null, 'the result is ' + toText(value));
  }
  return '{"ok":true,"t":"number","v":' + (objectIs(value, -0) ? '-0.0' : toText(value));
}

function evaluate(mode, code, context) {
  let script;
  try {
    script = mode === 'r' ? null : new vm.Script(code, { filename: 'formula' });
  } catch (error) {
    return failure('syntax', errorClass(error), errorMessage(error));
  }
  try {
    if (script === null) {
      return answer(new Function('require', code)(require)); // eslint-disable-line no-new-func
    }
    return answer(script.runInContext(context));
  } catch (error) {
    const cls = errorClass(error);
    return failure(cls === 'SyntaxError' ? 'syntax' : 'php', cls, errorMessage(error));
  }
}

function main() {
  const chunk = Buffer.alloc(1 << 16);
  let pending = '';
  let lines = [];
  const readLine = () => {
    for (;;) {
      const end = pending.indexOf('\n');
      if (end >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        return line;
      }
      let got;
      try {
        got = readSync(0, chunk, 0, chunk.length, null);
      } catch (error) {
        if (error && error.code === 'EAGAIN') {
          sleep(1);
          continue;
        }
        return null;
      }
      if (got === 0) return null;
      pending += chunk.toString('utf8', 0, got);
    }
  };
  const decode = (line) => {
    try {
      return parse(line);
    } catch (_) {
      return null;
    }
  };
  const kept = freshContext();
  let context = freshContext();
  for (;;) {
    const line = readLine();
    if (line === null) return;
    const first = decode(line);
    const n = first && typeof first.n === 'number' ? first.n : 1;
    const count = Math.max(1, Math.min(MAX_BATCH, n | 0));
    lines = [first];
    for (let k = 1; k < count; k++) {
      const next = readLine();
      if (next === null) return;
      lines.push(decode(next));
    }
    for (let k = 0; k < lines.length; k++) {
      const request = lines[k];
      const nonce = request && typeof request.i === 'string' ? request.i : null;
      const raw = request !== null && request.m === 'r';
      let out;
      let fresh = false;
      if (!request || typeof request.c !== 'string') {
        out = failure('sandbox', null, 'bad request');
      } else if (!raw && PURE.test(request.c)) {
        out = evaluate('e', request.c, kept);
      } else {
        out = evaluate(raw ? 'r' : 'e', request.c, context);
        fresh = true;
      }
      out += ',"i":' + (nonce === null ? 'null' : stringify(nonce)) + (raw ? ',"bye":true}' : '}');
      writeSync(2, out + '\n');
      if (raw) exit(0);
      if (fresh) context = freshContext();
    }
    lines = [];
  }
}

main();
