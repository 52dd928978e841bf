// Every module that registers scheduled-step handlers; both executors import this file.
import "@/lib/ctf/steps";
