<?php
/*
 * Formula Darts evaluator worker: one warm php-cli process, many formulas.
 *
 * Protocol (see evaluator/sandbox/protocol.py): requests arrive on stdin, one
 * JSON object per line, {"m": "e"|"r", "c": "<code>", "i": "<nonce>"}; the
 * first line of a batch adds "n": <lines in the batch>. Answers go to stderr,
 * one line per request, in order:
 *   {"ok":true,"t":"int","v":123}       {"ok":true,"t":"float","v":3.5}
 *   {"ok":false,"e":"syntax"|"php"|"not_finite"|"sandbox","c":"<class>","m":"<message>"}
 *   "bye":true is added when this worker retires after that answer.
 *   Every answer echoes its request's nonce as "i".
 * A batch's answers are written together, in one write at its end (one wake-up
 * of the pool per batch, not one per answer); a batch that runs long writes
 * what it has before its next request once FD_FLUSH_NS passed since its last
 * write, and a retiring worker writes everything before it exits. A request
 * that ends the worker therefore takes the unwritten answers before it along:
 * the pool sends every unanswered request of such a batch again, each alone.
 * Mode "e" evaluates an expression as `return (EXPR\n);`; mode "r" (tests
 * only) runs statements as they are.
 *
 * What PHP itself prints (echo, and fatal errors: display_errors=1 with only
 * fatal levels reported) goes to stdout, which the pool reads only as a dead
 * worker's last words; it never touches the answer channel.
 *
 * Evaluated code may be hostile (the checker may one day have a bug), so:
 * - a whole batch is read before any of it runs, and the pool writes nothing
 *   while a batch is in flight: stdin is empty whenever evaluated code runs,
 *   so reading it (fgets(STDIN), php://fd/0, SplFileObject) finds nothing;
 * - requests and nonces live in locals of fd_main, never as a call argument
 *   while evaluated code runs, so no backtrace or reflection reaches them;
 * - after each request and before its answer, cycles are collected and the
 *   globals it created are removed, so its destructors run in its own time;
 *   a worker left holding memory retires ("bye");
 * - PHP cannot undeclare a function, class, interface, trait or constant, so
 *   a request that declared one retires its worker ("bye"): the next request
 *   meets a fresh one. Only text naming a declaration (FD_DECLARES) can
 *   declare anything, so the counts are taken only then (listing the
 *   functions costs four times a formula);
 * - the worker calls none of the functions the pool disables (handlers,
 *   filters, output buffers, stream modes, define, ...): see DEFENCES.
 */

// No declare(strict_types=1): formulas must run in PHP's default (coercive)
// mode, as in `php -r`, where hexdec(63) is 99 and not a TypeError.

const FD_JSON = JSON_PRESERVE_ZERO_FRACTION | JSON_INVALID_UTF8_SUBSTITUTE | JSON_UNESCAPED_SLASHES;
const FD_MAX_BATCH = 256;
const FD_FLUSH_NS = 1000000; // 1 ms: how long answers may wait for the end of their batch
const FD_FLUSH_BYTES = 16384; // and how many bytes of them, well under the pipe's 64 KiB
const FD_MAX_LINE = 65600; // fgets reads length - 1 bytes: a 64 KiB request and its newline fit
// What code must contain to declare a function, class (named, anonymous or an
// alias: class_alias needs a user class), interface, trait, enum or constant:
// a declaration keyword, or eval/include/require compiling more code.
const FD_DECLARES = '/function|class|interface|trait|enum|const|eval|include|require/i';

/** How many functions, classes, interfaces, traits and constants user code declared. */
function fd_declared(): array
{
    return [
        count(get_defined_functions()['user']),
        count(get_declared_classes()),
        count(get_declared_interfaces()),
        count(get_declared_traits()),
        count(get_defined_constants(true)['user'] ?? []),
    ];
}

/** Runs in a function scope so evaluated code cannot touch the loop's variables. */
function fd_run(string $fd_mode, string $fd_code): mixed
{
    if ($fd_mode === 'e') {
        // The newline puts the wrapper's `)` on line 2: an error there is about
        // the end of the player's formula, not about a token they never typed.
        return eval('return (' . $fd_code . "\n);");
    }
    return eval($fd_code);
}

function fd_value(mixed $value): array
{
    if (is_int($value)) {
        return ['ok' => true, 't' => 'int', 'v' => $value];
    }
    if (is_float($value)) {
        if (is_nan($value)) {
            return ['ok' => false, 'e' => 'not_finite', 'c' => null, 'm' => 'the result is NAN'];
        }
        if (is_infinite($value)) {
            $sign = $value > 0 ? '' : '-';
            return ['ok' => false, 'e' => 'not_finite', 'c' => null, 'm' => "the result is {$sign}INF"];
        }
        return ['ok' => true, 't' => 'float', 'v' => $value];
    }
    return [
        'ok' => false, 'e' => 'php', 'c' => null,
        'm' => 'the result is not a number but ' . get_debug_type($value),
    ];
}

function fd_syntax(ParseError $e, string $mode): array
{
    $message = $e->getMessage();
    if ($mode === 'e' && $e->getLine() > 1) {
        $message = str_replace('unexpected token ")"', 'unexpected end of the formula', $message);
    }
    return ['ok' => false, 'e' => 'syntax', 'c' => get_class($e), 'm' => $message];
}

function fd_evaluate(string $mode, string $code): array
{
    try {
        return fd_value(fd_run($mode, $code));
    } catch (ParseError $e) {
        return fd_syntax($e, $mode);
    } catch (Throwable $e) {
        return ['ok' => false, 'e' => 'php', 'c' => get_class($e), 'm' => $e->getMessage()];
    }
}

function fd_memory_ceiling(): int
{
    $limit = ini_get('memory_limit');
    $bytes = (int) $limit * (['k' => 1 << 10, 'm' => 1 << 20, 'g' => 1 << 30][strtolower(substr($limit, -1))] ?? 1);
    return $bytes > 0 ? intdiv($bytes, 4) : 16 << 20;
}

/**
 * The request loop. Requests, and the nonces their answers must echo, are
 * locals here: evaluated code runs in another function and cannot read them
 * (no $GLOBALS entry, not in any frame's arguments), so it can never forge a
 * line the pool would accept as an answer.
 */
function fd_main(): void
{
    $known = array_flip(array_keys($GLOBALS));
    $globals = count($GLOBALS);
    $declared = fd_declared();
    $ceiling = fd_memory_ceiling();
    while (($line = fgets(STDIN, FD_MAX_LINE)) !== false) {
        $first = json_decode($line, true);
        $count = is_array($first) && is_int($first['n'] ?? null) ? max(1, min(FD_MAX_BATCH, $first['n'])) : 1;
        $batch = [$first];
        for ($k = 1; $k < $count; $k++) {
            if (($line = fgets(STDIN, FD_MAX_LINE)) === false) {
                return;
            }
            $batch[] = json_decode($line, true);
        }
        unset($line, $first);
        $answers = '';
        $written = hrtime(true);
        foreach ($batch as $request) {
            if ($answers !== '' && (hrtime(true) - $written > FD_FLUSH_NS || strlen($answers) > FD_FLUSH_BYTES)) {
                fprintf(STDERR, '%s', $answers);
                $answers = '';
                $written = hrtime(true);
            }
            $nonce = is_array($request) && is_string($request['i'] ?? null) ? $request['i'] : null;
            $declares = false;
            if (!is_array($request) || !is_string($request['c'] ?? null)) {
                $response = ['ok' => false, 'e' => 'sandbox', 'c' => null, 'm' => 'bad request'];
            } else {
                $declares = preg_match(FD_DECLARES, $request['c']) === 1;
                $response = fd_evaluate(($request['m'] ?? 'e') === 'r' ? 'r' : 'e', $request['c']);
            }
            unset($request);
            try {
                while (gc_collect_cycles() > 0) {
                }
                if (count($GLOBALS) !== $globals) {
                    foreach (array_keys($GLOBALS) as $name) {
                        if (!isset($known[$name])) {
                            unset($GLOBALS[$name]);
                        }
                    }
                }
                $clean = count($GLOBALS) === $globals && memory_get_usage() < $ceiling
                    && (!$declares || fd_declared() === $declared);
            } catch (Throwable $e) {
                unset($e);
                $clean = false;
            }
            $response['i'] = $nonce;
            if (!$clean) {
                $response['bye'] = true;
            }
            $out = json_encode($response, FD_JSON);
            if ($out === false) {
                $out = json_encode(['ok' => false, 'e' => 'php', 'c' => null, 'm' => 'unencodable result', 'i' => $nonce], FD_JSON);
            }
            $answers .= $out . "\n";
            unset($response, $out, $nonce, $declares);
            if (!$clean) {
                fprintf(STDERR, '%s', $answers);
                exit(0);
            }
        }
        fprintf(STDERR, '%s', $answers);
        unset($batch, $answers, $written);
    }
}

fd_main();
