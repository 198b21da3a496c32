A$="A
B":?A$;LEN(A$) 'X
Y?ASC(MID$(A$,1,1))READ B$,C:?B$;C?"END"DATA "P
Q",7