"""Humanity and Beast: d10 pools split between Humanity and Beast, exploding tens, Willpower, conflicts and
the slide to the Beast (BE-1 … BE-12). See docs/guide-beast.md."""
