"""What people do to a resolution: review and decide pairs, split a merge, rebuild the entity layer,
explain an entity's alias trail, export clusters."""
