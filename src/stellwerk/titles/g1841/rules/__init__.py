"""titles/g1841/rules"""
