"""Computer players and time-outs: the one decision for a seat (decide.py: `Decider`, its worker
processes and the fallback), the computer players' own seats (bots.py), the turn timers
(timers.py) and the time no server ran off their clocks (downtime.py)."""
