"""``make bench`` judges issue 32's targets from its own figures (``tests/benchmarks/verdicts.py``)."""

from __future__ import annotations

from tests.benchmarks import verdicts


def test_a_target_met_says_so_and_one_missed_says_by_how_much():
    figures = {"commands x naive": 1.2, "commands x floor": 0.3, "commands 5xx": 0, "commands p99 ms": 62,
               "rebuild x decode": 0.55, "audit x decode": 0.5, "export x decode": 0.8, "streams p99 ms": 120,
               "streams x idle": 1.5, "scale 1M worst x": 1.1}
    lines = verdicts.lines("sqlite", figures)
    assert len(lines) == len(verdicts.TARGETS)
    by_label = {line.split(" (", 1)[0][2:]: line for line in lines}
    assert "**missed**, 1.20×: 20 % short" in by_label["commands, 8 clients, against the steady naive peer"]
    assert "**met**, 0.30×" in by_label["commands, 8 clients, against the web floor"]
    assert "(none): **met**" in by_label["commands, 8 clients, answers 5xx"]
    assert "**missed**, 62 ms: 24 % over" in by_label["commands, 8 clients, p99"]
    assert "**met**, 0.50×" in by_label["audit verify against the raw decode"]
    assert "**missed**, 1.50×: 25 % over" in lines[-2]
    assert "**met**, 1.10×" in by_label["every read and command at 1,000,000 events against its latency at 10,000"]


def test_the_p99_under_50_ms_is_a_target_of_sqlite_alone_and_a_figure_not_taken_is_not_judged():
    lines = verdicts.lines("postgres", {"rebuild x decode": 0.4})
    assert not any("p99 (< 50 ms)" in line for line in lines)
    assert sum("not measured in this run" in line for line in lines) == len(lines) - 1
    assert "**missed**, 0.40×: 20 % short" in next(line for line in lines if line.startswith("- rebuild"))


def test_the_verdicts_replace_their_own_section_of_the_report_and_keep_the_others(tmp_path):
    report = tmp_path / "benchmarks.md"
    report.write_text("# Benchmarks\n\nIntro.\n\n### sqlite\n\nrows\n")
    verdicts.publish("sqlite", verdicts.section("sqlite", {"rebuild x decode": 0.4}), report)
    verdicts.publish("sqlite", verdicts.section("sqlite", {"rebuild x decode": 0.6}), report)
    text = report.read_text()
    assert text.count("### targets, sqlite") == 1 and "**met**, 0.60×" in text and "0.40×" not in text
    assert text.index("Intro.") < text.index("### targets, sqlite") < text.index("### sqlite\n\nrows")



def test_a_run_of_some_benchmarks_keeps_the_earlier_verdicts_of_the_targets_it_did_not_measure(tmp_path):
    report = tmp_path / "benchmarks.md"
    report.write_text("# Benchmarks\n\n### sqlite\n\nrows\n")
    verdicts.publish("sqlite", verdicts.section("sqlite", {"rebuild x decode": 0.6, "audit x decode": 0.2}), report)
    verdicts.publish("sqlite", verdicts.section("sqlite", {"streams p99 ms": 49}), report)  # make bench -k streams
    text = report.read_text()
    rebuild = next(line for line in text.splitlines() if line.startswith("- rebuild"))
    assert rebuild.endswith("**met**, 0.60× (an earlier run)")
    assert "**met**, 49 ms" in text and "2 of 3 measured met." in text
    verdicts.publish("sqlite", verdicts.section("sqlite", {"rebuild x decode": 0.4}), report)  # measured again
    text = report.read_text()
    assert "**missed**, 0.40×: 20 % short\n" in text and "0.60×" not in text
    assert "**met**, 49 ms (an earlier run)" in text and text.count("(an earlier run)") == 2
