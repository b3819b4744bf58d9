<?php
/*
 * Formula Darts evaluator worker: one warm php-cli process, many formulas.
 *
 * Protocol (see evaluator/sandbox/protocol.py): one JSON request per line on
 * stdin, {"m": "e"|"r", "c": "<code>", "i": "<nonce>"}, and one JSON response per line on the
 * response fd (argv[1], default 1 = stdout). Mode "e" evaluates an expression
 * as `return (EXPR);`; mode "r" (tests only) runs statements as they are.
 *
 * Responses:
 *   {"ok":true,"t":"int","v":123}       {"ok":true,"t":"float","v":3.5}
 *   {"ok":false,"e":"syntax"|"php"|"not_finite"|"timeout","c":"<class>","m":"<message>"}
 *   "bye":true is added when this process is about to exit (a fatal error).
 *   Every response echoes the request's nonce as "i" (see fd_main).
 *
 * Why the care: PHP's own output (echo, notices, warnings) must never reach the
 * response channel, so display_errors is off, every request runs inside an
 * output buffer that discards everything, and the local sandbox writes
 * responses to a separate fd while stdout goes to /dev/null.
 */

// No declare(strict_types=1): formulas must run in PHP's default (coercive)
// mode, as in `php -r`, where hexdec(63) is 99 and not a TypeError.

const FD_JSON = JSON_PRESERVE_ZERO_FRACTION | JSON_INVALID_UTF8_SUBSTITUTE | JSON_UNESCAPED_SLASHES;


function fd_send(SplFileObject $out, array $response): void
{
    $line = json_encode($response, FD_JSON);
    if ($line === false) {
        $line = json_encode(
            ['ok' => false, 'e' => 'php', 'c' => null, 'm' => 'unencodable result'],
            FD_JSON
        );
    }
    $out->fwrite($line . "\n");
    $out->fflush();
}

/** Runs in a function scope so evaluated code cannot touch the loop's variables. */
function fd_run(string $fd_mode, string $fd_code): mixed
{
    if ($fd_mode === 'e') {
        return eval('return (' . $fd_code . ');');
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

function fd_evaluate(string $mode, string $code): array
{
    $level = ob_get_level();
    // A chunk size makes PHP pass output to the callback as it grows, so a
    // flood is dropped piece by piece instead of filling memory.
    ob_start(static fn (string $chunk): string => '', 4096);
    try {
        $response = fd_value(fd_run($mode, $code));
    } catch (ParseError $e) {
        $response = ['ok' => false, 'e' => 'syntax', 'c' => get_class($e), 'm' => $e->getMessage()];
    } catch (Throwable $e) {
        $response = ['ok' => false, 'e' => 'php', 'c' => get_class($e), 'm' => $e->getMessage()];
    } finally {
        while (ob_get_level() > $level) {
            ob_end_clean();
        }
    }
    return $response;
}

/**
 * The request loop. It lives in a function so that the request, and the nonce
 * its answer must echo, are locals: evaluated code runs in another function and
 * cannot read them (no $GLOBALS entry, not in any frame's arguments), so it can
 * never forge a line the pool would accept as an answer.
 */
function fd_main(int $fd): void
{
    // SplFileObject, not fopen/fwrite: those are disabled for the evaluated code.
    $out = new SplFileObject("php://fd/$fd", 'w');
    $nonce = null;
    // Fatal errors (memory_limit, max_execution_time) end the process; report
    // them and say "bye" so the pool does not reuse this worker.
    register_shutdown_function(static function () use ($out, &$nonce): void {
        $error = error_get_last();
        $fatal = E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR;
        if ($error === null || ($error['type'] & $fatal) === 0) {
            return;
        }
        while (ob_get_level() > 0) {
            ob_end_clean();
        }
        $timeout = str_contains($error['message'], 'Maximum execution time');
        fd_send($out, [
            'ok' => false, 'e' => $timeout ? 'timeout' : 'php', 'c' => 'FatalError',
            'm' => $error['message'], 'bye' => true, 'i' => $nonce,
        ]);
    });

    while (($line = fgets(STDIN)) !== false) {
        $request = json_decode($line, true);
        $nonce = is_array($request) && is_string($request['i'] ?? null) ? $request['i'] : null;
        if (!is_array($request) || !is_string($request['c'] ?? null)) {
            fd_send($out, ['ok' => false, 'e' => 'sandbox', 'c' => null, 'm' => 'bad request', 'i' => $nonce]);
            continue;
        }
        $mode = ($request['m'] ?? 'e') === 'r' ? 'r' : 'e';
        $code = $request['c'];
        unset($request, $line);
        $response = fd_evaluate($mode, $code);
        $response['i'] = $nonce;
        fd_send($out, $response);
        $nonce = null;
    }
}

fd_main((int) ($argv[1] ?? 1));
