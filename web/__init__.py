"""The local web page served by the appliance."""
