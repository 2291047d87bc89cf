"""The accuracy figure the report prints is computed from the calibration rows, not typed in."""

import statistics

from tools.memory_calibration import CALIBRATION_ROWS, calibration_summary


def test_summary_matches_the_rows() -> None:
    s = calibration_summary()
    errors = [abs(r.error()) * 100 for r in CALIBRATION_ROWS]
    assert s.rows == len(CALIBRATION_ROWS) >= 15
    assert s.median_abs_error_pct == statistics.median(errors)
    assert s.worst_abs_error_pct == max(errors)
    assert s.median_abs_error_pct < 15  # issue 2/6 goal: median within 15% of published measurements
    assert f"{s.median_abs_error_pct:.1f}%" in s.sentence()


def test_sentence_carries_the_recorded_simulator_check_with_its_date() -> None:
    s = calibration_summary()
    text = s.sentence()
    assert f"{s.simulator.median_abs_error_pct:.1f}%" in text and s.simulator.as_of.isoformat() in text
    assert s.simulator.configurations >= 20  # issue 6: a grid of at least 20 configurations
    assert s.simulator.median_abs_error_pct < 10  # issue 6 goal: within 10% median of the simulator
