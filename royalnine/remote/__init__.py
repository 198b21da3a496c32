"""remote package."""
