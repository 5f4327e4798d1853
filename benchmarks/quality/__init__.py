"""Quality evaluations: extractors scored on public benchmarks with each benchmark's own
metric, beside the field's anchors measured in the same run. Their pinned floors are
enforced by ``tests/test_quality_*.py``."""
