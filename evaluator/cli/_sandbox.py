"""`formula-darts sandbox build|info`: the Docker sandbox image and whether it can be used.

`build` picks the production Dockerfile when its pinned php base image is
already in the engine (nothing is ever pulled), else packs the host's php into
an image from scratch; `--from-host` forces the latter. `info` runs php inside
the image under the pool's exact limits, so "it works" means the real thing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from evaluator.settings import EvaluatorSettings


def register(sub: Any) -> None:  # argparse._SubParsersAction
    parser: argparse.ArgumentParser = sub.add_parser(
        "sandbox", help="the Docker sandbox image: build it, or show what is usable"
    )
    actions = parser.add_subparsers(dest="sandbox_command", required=True)
    build = actions.add_parser(
        "build",
        help="build the sandbox image (production Dockerfile if its base image is here)",
    )
    build.add_argument(
        "--from-host",
        action="store_true",
        help="pack this host's php and its libraries into an image FROM scratch",
    )
    build.add_argument(
        "--tag", default=None, help="default: DOCKER_IMAGE (NODE_DOCKER_IMAGE) from the settings"
    )
    build.add_argument(
        "--language",
        choices=("php", "javascript"),
        default="php",
        help="javascript: the node image, packed from this host's node (nothing is pulled)",
    )
    build.set_defaults(func=_build)
    info = actions.add_parser(
        "info", help="PHP version inside the image and which backend would run (exit 1: no Docker)"
    )
    info.set_defaults(func=_info)


def _build(args: argparse.Namespace) -> int:
    import docker  # type: ignore[import-untyped]
    from docker import errors as docker_errors

    from evaluator.sandbox import images

    if args.language == "javascript":
        return _build_node(args.tag or EvaluatorSettings().node_docker_image)
    tag = args.tag or EvaluatorSettings().docker_image
    try:
        client = docker.from_env(timeout=600)
        client.ping()
    except docker_errors.DockerException as exc:
        print(f"no Docker engine reachable: {exc}", file=sys.stderr)
        return 1
    try:
        from_host = True if args.from_host else None
        if from_host is None:
            base = images.production_base_image()
            if images.base_image_present(client, base):
                print(f"building {tag} from evaluator/docker/Dockerfile on {base}")
            else:
                print(f"{base} is not in the engine (nothing is pulled): packing the host's php")
                from_host = True
        built = images.build_image(tag, from_host=from_host, client=client)
    except images.ImageBuildError as exc:
        print(exc, file=sys.stderr)
        return 1
    finally:
        client.close()
    print(f"built {built.tag} ({built.source}, PHP {built.php_version}) {built.image_id[:19]}")
    return 0


def _build_node(tag: str) -> int:
    from evaluator.sandbox import images

    try:
        built = images.build_node_image(tag)
    except images.ImageBuildError as exc:
        print(exc, file=sys.stderr)
        return 1
    except Exception as exc:  # no engine: the SDK's own words
        print(f"no Docker engine reachable: {exc}", file=sys.stderr)
        return 1
    print(f"built {built.tag} ({built.source}, node {built.php_version}) {built.image_id[:19]}")
    return 0


def _info(args: argparse.Namespace) -> int:
    del args
    from evaluator.sandbox.docker import docker_available
    from evaluator.sandbox.local import LocalWorkerFactory, SandboxUnavailable

    settings = EvaluatorSettings()
    docker_ok, docker_why = docker_available(settings)
    print(f"docker: {'usable' if docker_ok else 'not usable'} — {docker_why}")
    if docker_ok:
        try:
            version = asyncio.run(_php_in_image(settings))
        except Exception as exc:  # any failure here is the answer the user asked for
            print(f"  php in {settings.docker_image}: does not run: {exc}")
            docker_ok = False
        else:
            print(f"  php in {settings.docker_image}: {version} (run under the sandbox limits)")
    try:
        local = LocalWorkerFactory(settings)
        local_ok, local_why = True, f"{local.name}, php {local.php}"
    except SandboxUnavailable as exc:
        local_ok, local_why = False, str(exc)
    print(f"local:  {'usable' if local_ok else 'not usable'} — {local_why}")
    chosen = {
        "docker": "docker" if docker_ok else "none (EVALUATOR=docker but Docker is not usable)",
        "local": "local" if local_ok else "none",
        "auto": "docker" if docker_ok else ("local" if local_ok else "none"),
    }[settings.evaluator]
    print(f"EVALUATOR={settings.evaluator} would use: {chosen}")
    return 0 if docker_ok else 1


async def _php_in_image(settings: EvaluatorSettings) -> str:
    from evaluator.sandbox.docker import DockerWorkerFactory

    factory = DockerWorkerFactory(settings)
    code = 'fwrite(STDERR, PHP_VERSION . " " . PHP_OS . " " . (PHP_INT_SIZE * 8) . "-bit\\n");'
    worker = await factory.spawn_with(["php", "-n", "-r", code])
    try:
        answer = await worker.request(b"\n", 30.0)
    finally:
        await worker.kill()
        factory.close()
    return answer.decode(errors="replace").strip()
