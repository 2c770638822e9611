from passcheck.cli import run

run()
