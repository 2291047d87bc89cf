"""A percentile of the time to the first token under steady arrivals (expert review 14, R13: "p95 TTFT under
500 ms" for 50 users was checked as if all 50 prompts arrived at once, which is no p95 under steady load).

Model: prompts queue for the engine's prefill, one prompt's prefill S seconds each (fixed lengths: a
deterministic service), arriving as a Poisson stream at lambda per second: an M/D/1 queue of utilisation
rho = lambda x S. Without a stated request rate the arrivals are the closed loop's: each of the `live`
sequences is replaced when it finishes, lambda = live / (output x step) (Little's law), as in
tools/compute/serving_steps.py `time_to_first_token`.

The waiting time's tail is taken as exponential, P(W > t) ~ alpha x exp(-eta x t) (Abate, Choudhury and
Whitt, "Exponential approximations for tail probabilities in queues, I: waiting times", Operations Research
43(5):885-901, 1995), with
- eta, the asymptotic decay rate of the M/G/1 waiting time: the positive root of lambda (E[e^(eta S)] - 1) =
  eta (Cramér-Lundberg); for a fixed S, x = eta S solves rho (e^x - 1) = x;
- alpha, their suggested constant: eta x E[W], with E[W] = rho S / (2 (1 - rho)) (Pollaczek-Khinchine mean
  wait of M/D/1, Kleinrock, Queueing Systems vol. 1, 1975), capped at rho = P(W > 0).
The p-th percentile wait is then ln(alpha / (1 - p)) / eta (0 when alpha <= 1 - p: most arrive to no queue).

Time to first token at the percentile = S + one running decode step + that wait + the wait for a KV slot
beyond what the cache holds ((concurrency - live) / live x output x step, Little's law), the same terms as
the serving model's mean, with the queue at the percentile instead of its mean or a simultaneous wave.
"""

from __future__ import annotations

import math

from tools.compute import serving_constants as K
from tools.compute.serving import ServingTime
from tools.ranges import Range


def md1_decay_rate_x(rho: float) -> float:
    """x = eta x S, the positive root of rho (e^x - 1) = x for 0 < rho < 1 (module docstring); by bisection
    (the left side minus the right is negative just above 0 and grows without bound)."""
    if not 0.0 < rho < 1.0:
        raise ValueError(f"utilisation {rho} outside (0, 1)")
    hi = 1.0
    while rho * math.expm1(hi) <= hi:
        hi *= 2.0
    lo = 0.0
    for _ in range(100):
        mid = (lo + hi) / 2.0
        if rho * math.expm1(mid) > mid:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2.0


def md1_wait_percentile_s(rho: float, service_s: float, percentile: float) -> float:
    """The `percentile` (0-100) waiting time of an M/D/1 queue with utilisation `rho` and service time
    `service_s`, by the exponential tail approximation of the module docstring; 0 with no load."""
    if rho <= 0.0 or service_s <= 0.0:
        return 0.0
    rho = min(rho, K.MAX_PREFILL_UTILISATION)  # the queue diverges at 1 (tools/compute/serving_constants.py)
    eta_per_s = md1_decay_rate_x(rho) / service_s
    mean_wait_s = rho * service_s / (2.0 * (1.0 - rho))  # Pollaczek-Khinchine, M/D/1
    alpha = min(rho, eta_per_s * mean_wait_s)
    tail = 1.0 - percentile / 100.0
    if tail <= 0.0:
        raise ValueError(f"percentile {percentile} must be below 100")
    return max(0.0, math.log(alpha / tail) / eta_per_s)


def ttft_percentile_s(t: ServingTime, percentile: float, arrivals_per_s: float | None = None) -> Range | None:
    """The `percentile` time to the first token of one replica at its load `t` under steady arrivals
    (`arrivals_per_s` to this replica when a request rate is stated, else the closed loop's); None when the
    serving model gave no prefill time. Low end: fast prefill and step, few arrivals; high end: the slow."""
    if t.prefill_s is None or t.live_sequences < 1:
        return None
    pre = t.prefill_s
    step = t.ms_per_output_token.scale(0.001)
    if arrivals_per_s is None:
        # closed loop: a finished sequence is replaced at once (Little's law over the decode time)
        # each engine copy queues its own prompts (tools.compute.serving_copies): one copy's sequences
        live = t.live_sequences / t.engine_copies
        rate = Range(low=live / (t.output_tokens * step.high), high=live / (t.output_tokens * step.low))
    else:
        rate = Range(low=arrivals_per_s, high=arrivals_per_s)
    kv_wait = Range(low=0.0, high=0.0)
    if t.concurrency > t.live_sequences:
        extra = (t.concurrency - t.live_sequences) / t.live_sequences
        kv_wait = Range(low=extra * t.output_tokens * step.low, high=extra * t.output_tokens * step.high)
    low = pre.low + step.low + md1_wait_percentile_s(rate.low * pre.low, pre.low, percentile) + kv_wait.low
    high = pre.high + step.high + md1_wait_percentile_s(rate.high * pre.high, pre.high, percentile)
    return Range(low=low, high=high + kv_wait.high)
