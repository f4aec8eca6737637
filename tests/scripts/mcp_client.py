"""Drives `autofix mcp` with the official Python SDK (PyPI `mcp`): connect in one mode
(legacy, auto or 2026-07-28), list the tools, call each, print what came back as JSON.

Usage: python mcp_client.py BINARY WORKSPACE MODE
"""
import asyncio, json, sys
from mcp import StdioServerParameters
from mcp.client.client import Client

async def main(binary, cwd, mode):
    params = StdioServerParameters(command=binary, args=["mcp"], cwd=cwd)
    async with Client(params, mode=mode) as client:
        tools = await client.list_tools()
        names = sorted(t.name for t in tools.tools)
        calls = {
            "rules": {"category": ["TOOL"]},
            "learn": {"category": "code", "instruction": "Always test the MCP path", "why": "python client", "dry_run": True},
            "retire": {"rule": 1, "why": "python client", "dry_run": True},
            "check": {},
            "preset_validate": {"paths": ["presets"]},
            "preset_render": {"preset": "presets/last30days", "set": {"topic": "rust"}},
        }
        out = {"mode": mode, "version": client.session.protocol_version, "tools": names, "results": {}}
        for name, arguments in calls.items():
            result = await client.call_tool(name, arguments)
            out["results"][name] = {"isError": result.is_error, "version": (result.structured_content or {}).get("version")}
        print(json.dumps(out))

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
