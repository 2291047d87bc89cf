"""The web front end: a FastAPI app (chat page + JSON API under /api) over the persistence repository.

`create_app(...)` in advisor.web.app builds it; `gpu-advisor serve` runs it on uvicorn. Nothing lives
only in a worker's memory: each request loads the conversation state from the repository, resumes it,
and saves it back, so several workers (or hosts) can share one PostgreSQL database.
"""
