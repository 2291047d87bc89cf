"""GPU Advisor in Slack (Bolt): DMs, @mentions and /gpu-advisor run one conversation per thread; shared
files are briefs; replies are Block Kit summaries; the PDF report is uploaded to the thread.

`advisor.slack.app.build_slack_app()` builds the Bolt app; `advisor.slack.routes.slack_router(app)` serves
it at /slack/events in the FastAPI web app; `gpu-advisor slack` runs either that or Socket Mode.
"""
