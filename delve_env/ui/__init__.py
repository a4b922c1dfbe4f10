"""What a person sees: the text view, the picture, the terminal game, watching a policy, and
the reports."""
