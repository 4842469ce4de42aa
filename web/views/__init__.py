"""The archive's web pages (server-rendered; replay.js only makes stepping instant), one
module per page."""
