"""The appliance: the `carolus` command, main loop and the hardware around the table."""
