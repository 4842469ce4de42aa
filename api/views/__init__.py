"""The API's views: thin layers over `records` (services, filters, stats) and the engine."""
