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
 * there survives it; the next one is made once the answers before it are written (at
 * the batch's end, before the next read, or before the next such formula of the same
 * batch), so its cost is in nobody's wait but that formula's own. The answers before
 * such a formula are written before it runs: it alone can take long. (A fresh context is
 * ~1.2 ms of node's time, 98 % of a formula's cost: the kept one is what lets node
 * keep PHP's pace.)
 * Mode "r" (tests only) runs statements in this realm with `require`, to prove the OS
 * sandbox holds on its own; this realm cannot be cleaned, so the worker retires right
 * after a raw request.
 *
 * As in worker.php, a batch's answers are written together, in one write at its end
 * (or once FLUSH_MS or FLUSH_BYTES passed since the last write, so a long batch still
 * streams; a retiring worker writes them before it exits): the pool then reads a whole
 * batch in one wake-up instead of one per answer. A formula that ends the worker takes
 * the unwritten answers before it along; the pool sends each of those again alone
 * (`NodeProgram.answers_together`).
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
const FLUSH_MS = 1; // how long answers may wait for the end of their batch
const FLUSH_BYTES = 16384; // and how many bytes of them, well under the pipe's 64 KiB
const now = performance.now.bind(performance);
const bufferFrom = Buffer.from.bind(Buffer);
const bytesOf = (text) => bufferFrom(text, 'utf8');
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
  /* Write every byte of `text` to stderr: a pipe the pool reads, which may take a
   * long batch's answers in parts. */
  const writeAll = (text) => {
    const bytes = bytesOf(text);
    let done = 0;
    while (done < bytes.length) {
      try {
        done += writeSync(2, bytes, done, bytes.length - done);
      } catch (error) {
        if (!error || error.code !== 'EAGAIN') throw error;
        sleep(1);
      }
    }
  };
  const kept = freshContext();
  let context = freshContext();
  let used = false; // whether `context` ran a formula: the next one needs a fresh one
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
    let answers = '';
    let written = now();
    const flush = () => {
      if (answers !== '') writeAll(answers);
      answers = '';
      written = now();
    };
    for (let k = 0; k < lines.length; k++) {
      if (answers !== '' && (now() - written > FLUSH_MS || answers.length > FLUSH_BYTES)) flush();
      const request = lines[k];
      const nonce = request && typeof request.i === 'string' ? request.i : null;
      const raw = request !== null && request.m === 'r';
      let out;
      if (!request || typeof request.c !== 'string') {
        out = failure('sandbox', null, 'bad request');
      } else if (!raw && PURE.test(request.c)) {
        out = evaluate('e', request.c, kept);
      } else {
        // Only such a formula can take long (a pure one has no loop, call or regex to
        // run): the answers before it do not wait for it, nor for its context.
        flush();
        if (used) context = freshContext();
        used = true;
        out = evaluate(raw ? 'r' : 'e', request.c, context);
      }
      answers += out + ',"i":' + (nonce === null ? 'null' : stringify(nonce));
      answers += raw ? ',"bye":true}\n' : '}\n';
      if (raw) {
        flush();
        exit(0);
      }
    }
    flush();
    lines = [];
    if (used) {
      context = freshContext(); // made while the pool reads: the next read may wait for it
      used = false;
    }
  }
}

main();
