"""The application layer: each use case written once, for every front end (CLI, web, Slack, MCP, the
LangChain tools) to call.

- profiles: text, a brief or a profile file -> a workload profile;
- recommending: the catalog, the recommender and its caches, wired up once;
- reports: a profile -> a report file, and the folder reports go to;
- turns: one stored conversation turn, saved by compare-and-set and retried on a race;
- timing: one run's training time (`gpu-advisor time`, advisor.api.time, the MCP tool).
"""
