"""The Model Context Protocol server on stdio (the official SDK's low-level `Server`): lists the tools and
resources, and answers each call with the command's `--json` document (structured content) and its
sentences (text content). A refusal or bad input is a tool error carrying the CLI's code and message."""

from __future__ import annotations

import json
from importlib.metadata import version
from typing import Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from . import prompts, resources, tools
from .desk import Desk, failure

INSTRUCTIONS = (
    "chronicle is an event-sourced campaign ledger for tabletop role-playing games. Every tool takes an"
    " optional `campaign`, the campaign's name: it acts on that campaign (else on the user's current one),"
    " and choosing it writes nothing. Each tool that writes records one command (its arguments as `chronicle"
    " commands --json` describes the command's document; `oath_swear` is `oath swear`), signed by the"
    " identity this server runs as"
    " and allowed by that participant's role; a refusal or bad input is a tool error and writes nothing."
    " `replay` without `fork` and `amend` with `dry_run` answer what would change and write nothing."
    " `log`, `character_show`, `campaign_show`, `recap` and `verify` read; every campaign and character is"
    " also a resource (chronicle://campaign/NAME, chronicle://character/CAMPAIGN/NAME), and each session's log"
    " (chronicle://log/CAMPAIGN/N, or last); the prompts recap the last session, explain a ruling and tell what"
    " changed for a character since a moment."
)


def serve(desk: Desk) -> None:
    """Serve DESK's ledger on stdin and stdout until the client closes them."""
    anyio.run(_serve, desk)


async def _serve(desk: Desk) -> None:
    server = build(desk)
    async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as relays:
        received, sent = _answering(relays, read_stream, write_stream)
        await server.run(received, sent, server.create_initialization_options())
        await sent.aclose()  # (its relay then writes what is left and closes the transport's stream)


LONGEST = 1 << 20  # characters a message may hold, as `batch` and the shell hold a line


def _answering(relays: Any, read_stream: Any, write_stream: Any) -> tuple[Any, Any]:
    """The transport's streams, answering what the SDK would leave unanswered: a line that is not JSON gets
    -32700, one that is no JSON-RPC message object (or is past LONGEST) -32600; and an answer that cannot be
    written as UTF-8 JSON (a lone surrogate echoed back) is sent as an error of its request instead."""
    import anyio  # plain memory streams: the SDK reads a sender's context only where a stream offers one
    from mcp.shared.message import SessionMessage

    inward_send, inward = anyio.create_memory_object_stream[Any](0)
    outward, outward_receive = anyio.create_memory_object_stream[Any](0)

    async def relay_in() -> None:
        async with inward_send:
            async for item in read_stream:
                if isinstance(item, Exception):
                    await write_stream.send(SessionMessage(_error(None, *_unreadable(item))))
                    continue
                message = item.message
                if len(message.model_dump_json(by_alias=True, exclude_unset=True)) > LONGEST:
                    await write_stream.send(
                        SessionMessage(_error(getattr(message, "id", None), types.INVALID_REQUEST, "message too long"))
                    )
                    continue
                await inward_send.send(item)

    async def relay_out() -> None:
        async with outward_receive, write_stream:
            async for item in outward_receive:
                try:
                    item.message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")
                except (ValueError, UnicodeError):
                    ident = getattr(item.message, "id", None)
                    item = SessionMessage(
                        _error(ident, types.INVALID_PARAMS, "the answer holds text that is not UTF-8")
                    )
                await write_stream.send(item)

    relays.start_soon(relay_in)
    relays.start_soon(relay_out)
    return inward, outward


def _unreadable(problem: Exception) -> tuple[int, str]:
    kinds = {error.get("type") for error in getattr(problem, "errors", lambda: [])()}
    if kinds & {"json_invalid", "json_type"} or isinstance(problem, (ValueError, UnicodeError)) and not kinds:
        return types.PARSE_ERROR, "Parse error: the line is not JSON"
    return types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC message object"


def _error(ident: Any, code: int, message: str) -> Any:
    return types.JSONRPCError(jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=message))


def build(desk: Desk) -> Server[Any]:
    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        listed = await anyio.to_thread.run_sync(tools.listing, desk)
        return types.ListToolsResult(tools=[_tool(each) for each in listed])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if not tools.known(params.name):
            raise MCPError(types.INVALID_PARAMS, f"no tool named {params.name!r}")
        try:
            reply = await anyio.to_thread.run_sync(tools.call, desk, params.name, params.arguments or {})
        except Exception as problem:  # as the CLI: a refusal, bad input or a storage fault, in one line
            failed = failure(problem)
            return types.CallToolResult(
                content=[types.TextContent(text=f"Error: {failed.message}")],
                structured_content=failed.document(),
                is_error=True,
            )
        return types.CallToolResult(
            content=[types.TextContent(text=reply.text)], structured_content=reply.document, is_error=False
        )

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        found = await anyio.to_thread.run_sync(resources.entries, desk)
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=entry.uri,
                    name=entry.name,
                    title=entry.title,
                    description=entry.description,
                    mime_type="text/plain",
                )
                for entry in found
            ]
        )

    async def list_templates(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(uri_template=template, name=kind, mime_type="text/plain")
                for kind, template in resources.TEMPLATES.items()
            ]
        )

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            reply = await anyio.to_thread.run_sync(resources.read, desk, uri)
        except Exception as problem:  # as a tool's: the same code and message as the CLI's
            failed = failure(problem)
            raise MCPError(failed.rpc_code, failed.message, failed.document()["error"]) from None
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(uri=uri, mime_type="text/plain", text=reply.text),
                types.TextResourceContents(uri=uri, mime_type="application/json", text=json.dumps(reply.document)),
            ]
        )

    async def list_prompts(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=asked.name,
                    description=asked.description,
                    arguments=[
                        types.PromptArgument(name=name, description=said, required=required)
                        for name, said, required in asked.arguments
                    ],
                )
                for asked in prompts.PROMPTS
            ]
        )

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if not prompts.known(params.name):
            raise MCPError(types.INVALID_PARAMS, f"no prompt named {params.name!r}")
        try:
            description, text = await anyio.to_thread.run_sync(
                prompts.told, desk, params.name, dict(params.arguments or {})
            )
        except Exception as problem:  # as a tool's: the same code and message as the CLI's
            failed = failure(problem)
            raise MCPError(failed.rpc_code, failed.message, failed.document()["error"]) from None
        message = types.PromptMessage(role="user", content=types.TextContent(text=text))
        return types.GetPromptResult(description=description, messages=[message])

    return Server(
        "chronicle",
        version=version("chronicle-ledger"),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def _tool(listed: tools.Listed) -> types.Tool:
    return types.Tool(
        name=listed.name,
        description=listed.description,
        input_schema=listed.schema,
        # a read is read-only; a write says nothing more (40 bytes a tool of the list's budget): it records an
        # event for good, a correction being a new one, so a client's caution before it is in place
        annotations=None if listed.writes else types.ToolAnnotations(read_only_hint=True),
    )
