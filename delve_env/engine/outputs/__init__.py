"""What the engine hands out: the observation and its layout, the legal-action mask and why an action is masked, the rewards, the fight log."""
