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
