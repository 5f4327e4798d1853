"""A site's template learnt from its pages, and its change told once (webrobot.monitor.template)."""

from __future__ import annotations

from webrobot.monitor.template import Template, TemplateLearner, site_of, template_change

FOOTER = ["Copyright 2025 The Harbour Review.", "Please give five pounds today."]


def page(i: int, footer: list[str] = FOOTER) -> list[str]:
    return [
        f"Story {i} is about the tide number {i}.",
        f"It rained on day {i} of the {i}th week.",
        *footer,
    ]


def test_sentences_on_most_pages_are_the_template() -> None:
    learner = TemplateLearner()
    for i in range(10):
        learner.add(f"https://blog.example/post/{i}", page(i))
    learner.add("https://blog.example/", ["The Harbour Review: every story."])
    template = learner.learnt("https://blog.example", min_pages=10)
    assert template is not None and template.pages == 11
    assert sorted(template.sentences.values()) == sorted(FOOTER)


def test_too_few_pages_learn_nothing_and_sites_are_apart() -> None:
    learner = TemplateLearner()
    for i in range(9):
        learner.add(f"https://blog.example/post/{i}", page(i))
    learner.add("http://other.example/x", FOOTER)
    assert learner.learnt("https://blog.example", min_pages=10) is None
    assert learner.learnt("https://blog.example", min_pages=0) is None, "0 switches learning off"
    assert learner.sites() == ["http://other.example", "https://blog.example"]


def test_a_sentence_on_a_minority_of_pages_is_content() -> None:
    learner = TemplateLearner()
    for i in range(20):
        learner.add(f"https://b.example/{i}", page(i, FOOTER if i < 9 else FOOTER[:1]))
    template = learner.learnt("https://b.example", min_pages=10)
    assert template is not None and list(template.sentences.values()) == [FOOTER[0]]


def test_a_known_sentence_near_the_line_does_not_flap() -> None:
    known = Template({"please give five pounds today.": FOOTER[1]}, 20)
    learner = TemplateLearner()
    for i in range(20):
        learner.add(f"https://b.example/{i}", page(i, FOOTER if i < 8 else FOOTER[:1]))
    template = learner.learnt("https://b.example", min_pages=10, known=known)
    assert template is not None and sorted(template.sentences.values()) == sorted(FOOTER)
    assert template_change(known, template) == {"added": [FOOTER[0]], "removed": []}


def test_a_timestamp_in_the_footer_does_not_split_it() -> None:
    learner = TemplateLearner()
    for i in range(10):
        learner.add(
            f"https://b.example/{i}", [f"Page {i} text here.", f"Updated 2026-11-{10 + i} 09:14."]
        )
    template = learner.learnt("https://b.example", min_pages=10)
    assert template is not None and len(template.sentences) == 1


def test_a_change_is_told_only_between_two_templates() -> None:
    old = Template({"a.": "A.", "b.": "B."}, 40)
    assert template_change(None, old) is None, "the first template is learnt, not a change"
    assert template_change(old, None) is None
    assert template_change(old, Template({"a.": "A.", "b.": "B."}, 41)) is None
    assert template_change(old, Template({"a.": "A.", "c.": "C."}, 40)) == {
        "added": ["C."],
        "removed": ["B."],
    }


def test_a_template_survives_its_text_form_and_bad_text_is_empty() -> None:
    template = Template({"a.": "A."}, 12)
    assert Template.from_text(template.to_text()) == template
    assert Template.from_text("not json") == Template()
    assert Template.from_text('{"s": 3}') == Template()


def test_site_of_keeps_scheme_host_and_port() -> None:
    assert site_of("https://Blog.Example/post/1?x=2") == "https://blog.example"
    assert site_of("http://127.0.0.1:8080/a") == "http://127.0.0.1:8080"
