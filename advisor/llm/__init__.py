"""The LLM side of the advisor: settings, the chat-model factory, the openai extractor, the agent with its
tool adapters, and the number check that keeps every figure in a reply traceable to a tool.

Nothing here is imported by tools/; LangChain and openai are imported inside functions only, so the
offline rules path never loads them.
"""
